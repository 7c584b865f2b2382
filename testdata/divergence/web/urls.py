from urllib.parse import urlparse


def validate(url):
    parts = urlparse(url)
    if parts.scheme not in ("http", "https"):
        return False
    if len(parts.netloc) < 3:
        return False
    return True


def validate_redirect(url, allowed):
    host = urlparse(url).netloc
    return host in allowed and len(url) < 2048
