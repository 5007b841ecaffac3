"""The Flask extensions, created unbound; :func:`floor.create_app` binds them to an app."""

from __future__ import annotations

from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Declarative base of every model."""


db = SQLAlchemy(model_class=Base)
csrf = CSRFProtect()
login = LoginManager()
login.login_view = "auth.login"
login.login_message = "Please log in to see that page."
login.login_message_category = "info"
migrate = Migrate()
