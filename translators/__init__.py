"""Translators from other game languages (RECYCLE) to the project's game descriptions."""
