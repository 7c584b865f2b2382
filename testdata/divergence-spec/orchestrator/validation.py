"""DELEGATE checks before a task is handed down."""

MIN_SCOPE_WORDS = 15


def validate_delegate(delegate):
    errors = []
    if len(delegate["scope"].split()) < MIN_SCOPE_WORDS:
        errors.append("scope: at least 15 words")
    if len(delegate["plan"]) <= 1:
        errors.append("plan: at least two steps")
    if not delegate.get("success_criteria"):
        errors.append("success_criteria: required")
    return errors
