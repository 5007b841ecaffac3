"""The night (issue 24): a simulated card-room night played through the production server and
checked by a referee written apart from ``rules/``. ``python -m night --help``."""
