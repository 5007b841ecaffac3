"""Cards, decks and the text notation (DESIGN "Cards"; H1)."""

from __future__ import annotations

import pytest

from rules import CardError
from rules.cards import CARD_OF_TEXT, JOKER, RANKS, SUITS, Card, deck, parse_card, parse_cards, to_text


@pytest.mark.parametrize("text, canonical", [
    ("As", "As"), ("as", "As"), ("AS", "As"), ("10d", "Td"), ("td", "Td"), ("T♦", "Td"),
    ("k♠", "Ks"), ("2♣", "2c"), ("q♥", "Qh"), ("jk", "Jk"), ("JK", "Jk"), ("Jk", "Jk"),
    ("9h", "9h"), ("J♥️", "Jh"),
])
def test_H1_card_text_is_case_insensitive_and_canonical(text: str, canonical: str) -> None:
    card = parse_card(text)
    assert str(card) == canonical
    assert parse_card(str(card)) == card


@pytest.mark.parametrize("text", ["As Kd 7c", "As,Kd,7c", "As, Kd ,7c", " as\tkd\n7C ", "A♠ K♦ 7♣"])
def test_cards_separated_by_spaces_or_commas(text: str) -> None:
    assert to_text(parse_cards(text)) == "As Kd 7c"


def test_cards_from_a_list_of_strings_or_cards() -> None:
    assert parse_cards(["As", "10h", Card.parse("Jk")]) == (Card.of(14, "s"), Card.of(10, "h"), JOKER)


def test_every_card_round_trips() -> None:
    cards = deck(wild="bug")
    assert parse_cards(to_text(cards)) == cards
    assert len({str(c) for c in cards}) == 53


@pytest.mark.parametrize("given, message", [
    ("As Ks As", "duplicate card: As"),
    (["Qd", "qd"], "duplicate card: Qd"),
    ("As Zz", "unknown card 'Zz'"),
    ("As 1s", "unknown card '1s'"),
    ("As 11c", "unknown card '11c'"),
    ("Jk jk", "duplicate card: Jk"),
    (["As", 7], "unknown card 7"),
])
def test_parse_errors_name_the_card(given: object, message: str) -> None:
    with pytest.raises(CardError) as err:
        parse_cards(given)  # type: ignore[arg-type]
    assert str(err.value) == message


@pytest.mark.parametrize("text, count, message", [
    ("As Ks Qs Js", 5, "a hand has 5 cards, not 4"),
    ("As Ks Qs Js Ts 9s", 5, "a hand has 5 cards, not 6"),
    ("", 5, "a hand has 5 cards, not 0"),
])
def test_wrong_count_is_an_error(text: str, count: int, message: str) -> None:
    with pytest.raises(CardError, match=message):
        parse_cards(text, count=count)


def test_card_attributes_and_immutability() -> None:
    c = Card.parse("Qh")
    assert (c.rank, c.suit, c.is_joker) == (12, "h", False)
    assert (JOKER.rank, JOKER.suit, JOKER.is_joker) == (0, "", True)
    assert repr(c) == "Card('Qh')" and f"{c}" == "Qh"
    with pytest.raises(AttributeError):
        c.rank = 3  # type: ignore[misc]
    with pytest.raises(CardError):
        Card(53)


@pytest.mark.parametrize("wild, stripped, size, has_joker, lowest", [
    ("none", False, 52, False, 2),
    ("bug", False, 53, True, 2),
    ("joker", False, 53, True, 2),
    ("deuces", False, 52, False, 2),
    ("none", True, 32, False, 7),
    ("bug", True, 33, True, 7),
])
def test_H1_decks(wild: str, stripped: bool, size: int, has_joker: bool, lowest: int) -> None:
    cards = deck(wild=wild, stripped=stripped)
    assert len(cards) == len(set(cards)) == size
    assert (JOKER in cards) is has_joker
    assert min(c.rank for c in cards if not c.is_joker) == lowest


def test_unknown_wild_mode_for_a_deck() -> None:
    with pytest.raises(ValueError, match="wild"):
        deck(wild="sevens")


def test_H1_the_lookup_table_reads_every_spelling_as_the_long_way_does() -> None:
    """CARD_OF_TEXT (one dict lookup per card, the fast path of text input) is only a shortcut:
    every token the long way (trimming, lower-casing, suit symbols) reads is in it as the same
    card, and every token it holds the long way reads alike. The padded token is not in the
    table, so parse_card takes the long way for it."""
    ranks = [*RANKS, *RANKS.lower(), "10", "1", "0", "x", ""]
    suits = [*SUITS, *SUITS.upper(), "♣", "♧", "♦", "♢", "♥", "♡", "♠", "♤", "♠\ufe0f", "♡\ufe0f", "x", ""]
    tokens = {r + s for r in ranks for s in suits} | {"jk", "JK", "jK", "Jk", "joker", "JoKeR", "jok", "j"}
    read_long = 0
    for token in tokens:
        try:
            card = parse_card(f" {token}\t")
        except CardError:
            assert token not in CARD_OF_TEXT, token
            continue
        read_long += 1
        assert CARD_OF_TEXT[token] == card, token
    # 19 rank spellings (eight digits, five letters in two cases, 10) times the 18 suit spellings
    # above, and the six joker spellings: nothing else of the list is a card.
    assert read_long == 19 * 18 + 6
    assert set(CARD_OF_TEXT.values()) == set(deck(wild="bug"))
    for token, card in CARD_OF_TEXT.items():
        assert parse_card(f" {token} ") == card
