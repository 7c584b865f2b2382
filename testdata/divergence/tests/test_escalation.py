from skills.protocol_validator.escalation import escalate_handback


def test_escalate_low_quality():
    hb = {"metrics": {"quality": 0.2}, "retry_count": 0, "status": "success"}
    assert escalate_handback(hb)


def check_escalation_thresholds(handback):
    # a helper of the tests: test code is never a duplicate implementation
    return handback["metrics"]["quality"] < 0.5 or handback["retry_count"] >= 3
