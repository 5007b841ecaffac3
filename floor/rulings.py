"""Issued rulings: the dispute walk of the decision tree, the stored record, its PDF and its check."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("rulings", __name__, url_prefix="/rulings")
