"""QR codes for the share page: the read-only address as an inline SVG."""
from __future__ import annotations

import re

import qrcode
import qrcode.image.svg

# Light modules around the code. The standard asks for 4; 2 leaves more of a phone screen to the code,
# and the white card around it widens the light margin anyway.
QUIET_ZONE = 2


def qr_svg(text: str) -> str:
    """`text` as a QR code in an inline <svg> that scales with its box.

    qrcode writes a fixed size in millimetres (width="29mm" …); that pair is swapped for a class
    the page's CSS sizes, and a role and label so a screen reader names the picture. The viewBox
    stays, so the code keeps its shape at any size.
    """
    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, border=QUIET_ZONE)
    svg = image.to_string(encoding="unicode")
    return re.sub(r'<svg width="[^"]*" height="[^"]*"', '<svg class="qr" role="img" aria-label="QR"', svg,
                  count=1)
