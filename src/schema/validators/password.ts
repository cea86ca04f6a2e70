/** The identity provider's policy: 8+ characters with a digit, a lower and an upper case letter and a symbol. */
export function isComplexPassword(password: string): boolean {
  return (
    [...password].length >= 8 &&
    /\p{Nd}/u.test(password) &&
    /\p{Ll}/u.test(password) &&
    /\p{Lu}/u.test(password) &&
    /[^\p{L}\p{N}\s]/u.test(password)
  );
}
