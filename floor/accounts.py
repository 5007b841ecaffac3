"""Accounts made outside the login pages: by the CLI, the demo and the director's users page.

One function, so that the three make an account the same way (a name, a role, a password of at
least 8 characters, and a fresh API token that is shown once).
"""

from __future__ import annotations

from floor.extensions import db
from floor.models import Role, User


def create_user(username: str, role: Role, password: str) -> tuple[User, str]:
    """Add an account; returns it with its freshly issued API token (shown once)."""
    username = username.strip()
    if not username:
        raise ValueError("a user name may not be empty")
    taken = User.named(username)
    if taken is not None:  # names ignore case: "Dealer1" would log in dealer1
        raise ValueError(f"user {taken.username!r} exists already" if taken.username == username else
                         f"user {taken.username!r} exists already (user names ignore case)")
    user = User(username=username)
    user.role = role
    user.set_password(password)
    token = user.new_api_token()
    db.session.add(user)
    db.session.commit()
    return user, token
