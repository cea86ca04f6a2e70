import type { FastifyRequest } from 'fastify';
import { keyedError } from '../http-error.ts';
import type { HandlerContext } from './handler-context.ts';

/** `OPTIONS webtool/<endpoint>`: a known path refuses the verb, an unknown one is a 404. */
export const optionsHandler = (ctx: HandlerContext) => async (request: FastifyRequest) => {
  ctx.resourceFor(request);
  throw keyedError(405, 'gateway.method_not_supported', { method: 'OPTIONS' });
};
