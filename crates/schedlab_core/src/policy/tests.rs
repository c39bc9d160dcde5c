// Policy tests.
