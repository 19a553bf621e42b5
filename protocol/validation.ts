/**
 * Validation rules of spec §5 shared by the web forms and the engine, so both tiers refuse the
 * same input with the same message key.
 */

/** URL: must begin with http or https. */
export const HTTP_URL_PATTERN = /^https?:\/\/[^\s]+$/i;

export function isHttpUrl(value: string): boolean {
  return HTTP_URL_PATTERN.test(value.trim());
}

/** E-mail: a word-based local part, an @, and a domain containing a dot. */
export const EMAIL_PATTERN = /^[\w.+-]+@[\w-]+(\.[\w-]+)*\.[A-Za-z]{2,}$/;

/** Six-digit verification code. */
export const SIX_DIGIT_CODE_PATTERN = /^\d{6}$/;

/** Transaction password: exactly six digits. */
export const TRADE_PASSWORD_PATTERN = /^\d{6}$/;

/** Password: 6 to 20 characters from letters, digits and the listed symbols. */
export const PASSWORD_SYMBOLS = "!@#$%^&*()_+-=.,?";
export const PASSWORD_PATTERN = /^[A-Za-z0-9!@#$%^&*()_+\-=.,?]{6,20}$/;

/** Strong password: at least 6 characters mixing at least two of digits, letters, symbols. */
export function isStrongPassword(value: string): boolean {
  if (value.length < 6) return false;
  const classes = [/\d/, /[A-Za-z]/, /[^A-Za-z0-9]/].filter((re) => re.test(value)).length;
  return classes >= 2;
}
