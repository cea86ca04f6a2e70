import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { identitySettings } from '../config.ts';
import { DATABASE_UNAVAILABLE } from '../../src/contract/errors.ts';
import { DatabaseUnavailableError } from '../db/adapter.ts';
import { CognitoError } from './errors.ts';
import type { Operation } from './user-pool.ts';

const AMZ_JSON = 'application/x-amz-json-1.1';
const BODY_LIMIT = 64 * 1024;

export interface IdentityRoutes {
  userPool: Record<string, Operation>;
  identityPool: Record<string, Operation>;
  jwks: () => Promise<object>;
  /** Present only in local mode. */
  outbox?: () => Promise<object[]>;
  /** Local mode: POST /__dev/identity/end-block {username} ends that user's code block now. */
  endBlock?: (username: string) => Promise<void>;
}

function sendError(reply: FastifyReply, error: CognitoError) {
  // Cognito sends the type both ways; Amplify reads the header first.
  return reply
    .status(error.statusCode)
    .header('x-amzn-errortype', `${error.type}:`)
    .header('x-amzn-requestid', randomUUID())
    .type(AMZ_JSON)
    .send(JSON.stringify({ __type: error.type, message: error.message }));
}

/** Routes of the stand-in, in their own encapsulated scope: the parser and error handler stay here. */
export async function registerIdentityRoutes(app: FastifyInstance, routes: IdentityRoutes): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser(AMZ_JSON, { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(new CognitoError('SerializationException', 'The request body is not valid JSON.'), undefined);
      }
    });

    scope.setErrorHandler((error, request, reply) => {
      if (error instanceof CognitoError) return sendError(reply, error);
      if (error instanceof DatabaseUnavailableError) {
        request.log.warn({ err: error }, 'database unavailable');
        reply.header('retry-after', String(DATABASE_UNAVAILABLE.retryAfterSeconds));
        return sendError(
          reply,
          new CognitoError(
            DATABASE_UNAVAILABLE.identityErrorType,
            DATABASE_UNAVAILABLE.message,
            DATABASE_UNAVAILABLE.status,
          ),
        );
      }
      const status = (error as { statusCode?: number }).statusCode ?? 500;
      if (status < 500) {
        return sendError(reply, new CognitoError('SerializationException', (error as Error).message));
      }
      request.log.error(error);
      return sendError(reply, new CognitoError('InternalErrorException', 'An internal error occurred.', 500));
    });

    const dispatch =
      (service: string, operations: Record<string, Operation>) =>
      async (request: FastifyRequest, reply: FastifyReply) => {
        const target = request.headers['x-amz-target'];
        const [prefix, name] = typeof target === 'string' ? target.split('.') : [];
        if (prefix !== service || !name || !Object.hasOwn(operations, name)) {
          throw new CognitoError('UnknownOperationException', `Unknown or unsupported operation: ${String(target)}.`);
        }
        const body = request.body;
        if (typeof body !== 'object' || body === null || Array.isArray(body)) {
          throw new CognitoError('SerializationException', 'The request body must be a JSON object.');
        }
        const result = await operations[name](body as Record<string, unknown>, { sourceIp: request.ip });
        return reply.header('x-amzn-requestid', randomUUID()).type(AMZ_JSON).send(JSON.stringify(result));
      };

    const limits = { bodyLimit: BODY_LIMIT };
    scope.post(identitySettings.userPoolPath, limits, dispatch('AWSCognitoIdentityProviderService', routes.userPool));
    scope.post(identitySettings.identityPoolPath, limits, dispatch('AWSCognitoIdentityService', routes.identityPool));

    scope.get(identitySettings.jwksPath, async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=300').send(await routes.jwks()),
    );

    const outbox = routes.outbox;
    if (outbox) scope.get('/__dev/outbox', async () => outbox());
    const endBlock = routes.endBlock;
    if (endBlock) {
      scope.post('/__dev/identity/end-block', limits, async (request, reply) => {
        const username = (request.body as { username?: unknown } | null)?.username;
        if (typeof username !== 'string' || !username) return reply.code(400).send({ message: 'username required' });
        await endBlock(username);
        return reply.code(204).send();
      });
    }
  });
}
