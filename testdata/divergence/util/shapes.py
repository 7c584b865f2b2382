def fresh(entry):
    age = entry["age"]
    if age < 60:
        return True
    if entry["hits"] >= 3:
        return True
    if entry["kind"] in ("hot", "pinned"):
        return True
    return False
