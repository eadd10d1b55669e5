/**
 * Exit code of `kiln doctor quota` when it found drift and did not repair it (without `--fix`):
 * distinct from 1 (the command failed) and 2 (bad arguments), so scripts can tell them apart.
 */
export const EXIT_DRIFT = 3;
