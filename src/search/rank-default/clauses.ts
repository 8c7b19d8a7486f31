/** Split a task into its steps: sentences, semicolons, commas and "then"/"and" joints. */
export function splitClauses(text: string): string[] {
  return (
    text
      .split(/[.;!?\n]+|,\s+|\s+(?:and then|then|and|after that|finally)\s+/i)
      .map((c) => c.trim())
      // Two words or more: a trimmed clause with any space inside (no word array built to count).
      .filter((c) => /\s/.test(c))
  );
}
