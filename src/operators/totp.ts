import { generateSecret, generateURI, verifySync } from 'otplib';
import QRCode from 'qrcode';

/**
 * TOTP (RFC 6238) as every authenticator app reads it: SHA-1, 6 digits, 30-second steps, a
 * 20-byte secret in base32 (otplib). A code of the step before or after the current one is
 * taken too (clocks drift); the caller refuses any step not after the last one accepted, so a
 * code works once.
 */

export const TOTP_PERIOD_S = 30;
export const TOTP_DIGITS = 6;
/** One step either side of now. */
export const TOTP_TOLERANCE_S = 30;
export const TOTP_ISSUER = 'Tollgate';

const CODE = /^\d{6}$/;

/** A new secret: 20 random bytes, base32 (32 characters). */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/** The otpauth:// URI an authenticator app scans. */
export function totpUri(login: string, secret: string): string {
  return generateURI({ issuer: TOTP_ISSUER, label: login, secret });
}

/** Whether `input` looks like a TOTP code (six digits, spaces allowed). */
export function isTotpCode(input: string): boolean {
  return CODE.test(input.replace(/\s/g, ''));
}

/**
 * The time step of `code` when it is valid for `secret` now (within the tolerance) and later
 * than `afterStep`; undefined otherwise.
 */
export function totpStep(secret: string, code: string, afterStep?: number): number | undefined {
  const token = code.replace(/\s/g, '');
  if (!CODE.test(token)) return undefined;
  const result = verifySync({
    secret,
    token,
    period: TOTP_PERIOD_S,
    digits: TOTP_DIGITS,
    epochTolerance: TOTP_TOLERANCE_S,
    ...(afterStep !== undefined ? { afterTimeStep: afterStep } : {}),
  });
  // The TOTP strategy's result carries the step (the union type also covers HOTP's).
  const step = result.valid ? (result as { timeStep?: number }).timeStep : undefined;
  return typeof step === 'number' ? step : undefined;
}

/** The URI as a QR code, an SVG in a data: URL (the dashboard's CSP allows img-src data:). */
export async function qrDataUrl(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}
