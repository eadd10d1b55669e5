/**
 * The PostgreSQL server the tests use: KILN_TEST_DATABASE_URL, or the local server at
 * 127.0.0.1:5432 that CI guarantees. Tests fail (they are not skipped) when it is unreachable.
 */
export function testPostgresUrl(): string {
  return process.env.KILN_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
}
