import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http-error.ts';
import type { HandlerContext } from './handler-context.ts';

/** `OPTIONS webtool/<endpoint>`: a known path refuses the verb, an unknown one is a 404. */
export const optionsHandler = (ctx: HandlerContext) => async (request: FastifyRequest) => {
  ctx.resourceFor(request);
  throw new HttpError(405, 'OPTIONS is not supported here.');
};
