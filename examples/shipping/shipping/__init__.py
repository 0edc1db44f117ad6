"""Parcel shipping quotes: tenet's example of a plan (`tenet demo --plan`)."""
