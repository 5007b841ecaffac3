"""Printed rule summaries for the tables: ``/rules/<profile>.pdf``."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("prints", __name__, url_prefix="/rules")
