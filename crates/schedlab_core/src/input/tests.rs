// Input parsing tests.
