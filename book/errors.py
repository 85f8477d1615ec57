class BookError(Exception):
    """An error meant for an author: the message says what, where, expected and got."""
