/** The message of anything thrown: an Error's message, otherwise its string form. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
