"""Thresholds shared by the workers."""

QUALITY_FLOOR = 0.6
MAX_RETRIES = 3
