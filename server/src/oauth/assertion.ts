import type { JWTPayload } from 'jose';
import type { CoreContext } from '../core/types.js';
import type { AppRow } from '../store/types.js';
import { findApp } from './clients.js';
import { OAuthError } from './errors.js';

/** An assertion may not be valid for longer than this (wire contract), so that a leaked one soon dies. */
const MAX_LIFETIME_S = 3600;

const encoder = new TextEncoder();

/** A verified JWT bearer assertion (RFC 7523 §3): its issuing app and the access token it names. */
export interface VerifiedAssertion {
  app: AppRow;
  /** The access token given as `sub` (or the legacy `prn`). */
  subject: string;
}

/**
 * Verifies an assertion: HS256 only, MAC keyed with the client secret of `iss`, `aud` present, `exp` present,
 * not past and at most an hour ahead, `sub` or `prn` (equal when both) naming the token. Failures are `invalid_grant`.
 */
export async function verifyAssertion(context: CoreContext, assertion: string): Promise<VerifiedAssertion> {
  // jose loads with the first assertion: most servers never see one, and it weighs a tenth of a start.
  const { decodeJwt, decodeProtectedHeader, jwtVerify } = await import('jose');
  let unverified: JWTPayload;
  try {
    if (decodeProtectedHeader(assertion).alg !== 'HS256') {
      throw new OAuthError('invalid_grant', 'The assertion must be signed with HS256');
    }
    unverified = decodeJwt(assertion);
  } catch (error) {
    if (error instanceof OAuthError) throw error;
    throw new OAuthError('invalid_grant', `The assertion is not a well-formed JWT: ${messageOf(error)}`);
  }
  if (typeof unverified.iss !== 'string') {
    throw new OAuthError('invalid_grant', 'The assertion claim "iss" (the client_id) is required');
  }
  const app = findApp(context.store, unverified.iss);
  if (!app) throw new OAuthError('invalid_grant', 'The assertion issuer is not a registered client');

  const now = context.clock.now();
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(assertion, encoder.encode(app.client_secret), {
      algorithms: ['HS256'],
      issuer: app.client_id,
      requiredClaims: ['exp', 'aud'],
      currentDate: new Date(now),
    }));
  } catch (error) {
    throw joseFailure(error);
  }
  if (payload.exp! > now / 1000 + MAX_LIFETIME_S) {
    throw new OAuthError('invalid_grant', `The assertion claim "exp" is more than ${MAX_LIFETIME_S} seconds ahead`);
  }
  if (!isAudience(payload.aud)) throw new OAuthError('invalid_grant', 'The assertion claim "aud" must be a string');
  return { app, subject: subjectOf(payload) };
}

function isAudience(aud: unknown): boolean {
  const values = Array.isArray(aud) ? aud : [aud];
  return values.length > 0 && values.every((value) => typeof value === 'string' && value !== '');
}

function subjectOf(payload: JWTPayload): string {
  const { sub, prn } = payload;
  if (sub !== undefined && typeof sub !== 'string')
    throw new OAuthError('invalid_grant', 'The claim "sub" must be a string');
  if (prn !== undefined && typeof prn !== 'string')
    throw new OAuthError('invalid_grant', 'The claim "prn" must be a string');
  if (sub !== undefined && prn !== undefined && sub !== prn) {
    throw new OAuthError('invalid_grant', 'The claims "sub" and "prn" differ');
  }
  const subject = sub ?? prn;
  if (!subject) {
    throw new OAuthError(
      'invalid_grant',
      'The assertion claim "sub" (or "prn") is required: the access token to exchange',
    );
  }
  return subject;
}

/** jose's verification errors, as RFC 7523 §3.1 asks: `invalid_grant` with a description of what failed. */
function joseFailure(error: unknown): OAuthError {
  const { code, claim, reason } = (error ?? {}) as { code?: string; claim?: string; reason?: string };
  switch (code) {
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      if (reason === 'missing') {
        return new OAuthError('invalid_grant', `The assertion claim "${claim}" is required`);
      }
      return new OAuthError('invalid_grant', `The assertion claim "${claim}" is invalid: ${messageOf(error)}`);
    case 'ERR_JWT_EXPIRED':
      return new OAuthError('invalid_grant', 'The assertion has expired (claim "exp")');
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return new OAuthError('invalid_grant', 'The assertion signature does not verify with the secret of its issuer');
    case 'ERR_JWT_INVALID':
    case 'ERR_JWS_INVALID':
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return new OAuthError('invalid_grant', `The assertion is invalid: ${messageOf(error)}`);
    default:
      if (error instanceof Error) throw error;
      return new OAuthError('invalid_grant', 'The assertion could not be verified');
  }
}

/** jose's own words on what failed (they name claims and header parameters, never key material). */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
