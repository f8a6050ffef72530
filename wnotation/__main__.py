"""``python -m wnotation``: the same command line as the ``wnotation`` script."""

from .cli import script

if __name__ == "__main__":
    script()
