"""DELEGATE checks used by the orchestrator before it hands a task down."""


class DelegateError(ValueError):
    pass


def validate_delegate(delegate):
    errors = []
    if len(delegate["scope"].split()) < 15:
        errors.append("scope: must have at least 15 words")
    if len(delegate["success_criteria"]) < 1:
        errors.append("success_criteria: at least one criterion")
    if len(delegate["plan"]) < 2:
        errors.append("plan: at least two steps")
    if not delegate.get("agent"):
        errors.append("agent: required")
    return errors
