"""What other programs read of the office: calendar feeds and their time zones, and QR codes of their addresses."""
