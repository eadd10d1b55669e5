const constructors: Record<string, ErrorConstructor> = {
  TypeError,
  RangeError,
  SyntaxError,
};

/**
 * Turns an ERROR's text ("Kind: message") into an Error: standard kinds become their class,
 * others (NotFound, PermissionDenied, NetworkError, ProtocolError) an Error with that name.
 */
export function errorFromText(text: string): Error {
  const match = /^([A-Z][A-Za-z]*): ([\s\S]*)$/.exec(text);
  if (!match) return new Error(text);
  const [, kind, message] = match as unknown as [string, string, string];
  const Constructor = constructors[kind];
  if (Constructor) return new Constructor(message);
  const failure = new Error(message);
  failure.name = kind;
  return failure;
}
