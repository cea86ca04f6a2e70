import { HttpError } from 'react-admin';
import { signRequest, type SigningSession } from './signed-fetch.ts';
import type { CallOptions, GatewayCall, GatewayRequest } from '../contract/gateway.ts';
import { errorMessage } from './http-errors.ts';

export type { CallOptions, GatewayCall };

export type Translate = (key: string, args?: Record<string, unknown>) => string;

export interface GatewayClientOptions {
  apiBase: string;
  /** Current tokens and credentials; Amplify refreshes them when close to expiry. */
  session: () => Promise<SigningSession>;
  replaceLoma?: boolean;
  version?: string;
  translate?: Translate;
  fetchImpl?: typeof fetch;
}

/** Headers the production gateway expects on particular paths (spec 01 §7). */
export function contractHeaders(request: GatewayRequest, replaceLoma: boolean, version: string) {
  const headers: Record<string, string> = {};
  const versioned = replaceLoma ? /service[-_]points/.test(request.path) : /loma/.test(request.path);
  if (versioned) headers['x-wt-version'] = version;
  if (request.method === 'PUT' && /^webtool\/locations/.test(request.path)) headers.accept = 'application/json';
  return headers;
}

async function readBody(response: Response): Promise<Record<string, unknown> | undefined> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : { message: String(parsed) };
  } catch {
    return { message: text };
  }
}

/** A signed, error-mapped call to the webtool/ gateway. */
export function createGatewayClient(options: GatewayClientOptions): GatewayCall {
  const doFetch = options.fetchImpl ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const translate: Translate = options.translate ?? ((key) => key);
  return async function call<T>(request: GatewayRequest, callOptions: CallOptions = {}): Promise<T> {
    const context = callOptions.context ?? request.path.replace(/^webtool\//, '');
    const session = await options.session().catch(() => {
      throw new HttpError(translate('http.need_to_login'), 401);
    });
    const headers = {
      ...contractHeaders(request, options.replaceLoma ?? false, options.version ?? ''),
      ...request.headers,
    };
    const { url, init } = await signRequest(options.apiBase, { ...request, headers }, session);
    let response: Response;
    try {
      response = await doFetch(url, request.signal ? { ...init, signal: request.signal } : init);
    } catch (error) {
      // A cancelled call is no server error: react-query drops its result without a message.
      if (request.signal?.aborted) throw error;
      throw new HttpError(translate('http.server_error', { context }), 0);
    }
    const body = await readBody(response);
    if (!response.ok) {
      const { message, args } = errorMessage(response.status, body, {
        context,
        code313Message: callOptions.code313Message,
      });
      throw new HttpError(translate(message, args), response.status, body);
    }
    return body as T;
  };
}
