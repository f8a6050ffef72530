"""``python -m wnotation``: the same command line as the ``wnotation`` script."""

from .cli import main

if __name__ == "__main__":
    main(prog_name="wnotation")
