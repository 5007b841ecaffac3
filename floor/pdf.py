"""The app's PDFs: WeasyPrint (through Flask-WeasyPrint, which resolves the app's own URLs for
stylesheets and images), imported on the first print.

Importing WeasyPrint costs about a second of CPU (its C bindings are read at import), which every
server worker, every CLI command and every test process paid at start before a single PDF was asked
for. Every print of the app goes through these two functions.
"""

from __future__ import annotations

from importlib.metadata import version
from typing import Any

#: The renderer's version, read without importing it: part of a stored print's key
#: (:func:`floor.rulings.printed.print_key`).
WEASYPRINT_VERSION = version("weasyprint")


def pdf_bytes(html: str, base_url: str | None = None) -> bytes:
    """``html`` laid out as a PDF. Inside a request, relative URLs resolve against the request's
    URL unless ``base_url`` says otherwise."""
    from flask_weasyprint import HTML

    document = HTML(string=html) if base_url is None else HTML(string=html, base_url=base_url)
    data: bytes = document.write_pdf()
    return data


def pdf_response(html: str, download_filename: str) -> Any:
    """The response to a request for ``html`` as a PDF, sent as an attachment named ``download_filename``."""
    from flask_weasyprint import HTML, render_pdf

    return render_pdf(HTML(string=html), download_filename=download_filename)


__all__ = ["WEASYPRINT_VERSION", "pdf_bytes", "pdf_response"]
