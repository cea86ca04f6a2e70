import { INVOICE_JOB, invoiceWork } from './gateway/rules/invoicing/invoicing.ts';
import { LICENCE_JOB, licenceWork } from './gateway/rules/integrations/licences.ts';
import { REMINDER_JOB, reminderWork } from './gateway/rules/integrations/notifications.ts';
import { createCarrierRules } from './gateway/rules/partners/carriers.ts';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyError, type FastifyServerOptions } from 'fastify';
import fastifyStatic from '@fastify/static';
import { DatabaseUnavailableError, type Db } from './db/adapter.ts';
import type { Identity } from './identity/index.ts';
import { databaseUnavailableBody, HttpError, INVALID_JSON } from './gateway/http-error.ts';
import { DATABASE_UNAVAILABLE } from '../src/contract/errors.ts';
import { registerWebtool } from './gateway/webtool-routes.ts';
import { loadResources, loadSchemas, type ResourceDefinition } from './gateway/resource-registry.ts';
import type { Doc } from './gateway/record-store.ts';
import { createSchemaRegistry } from '../src/schema/ajv.ts';
import { formModel, formValuesOf } from '../src/schema/resource-model.ts';
import { validateRecord } from '../src/schema/validate.ts';
import { resourceRules } from './gateway/rules/index.ts';
import { identityAccessRoutes } from './gateway/identity-access.ts';
import { listsRoute } from './gateway/lists.ts';
import { pieceLogsRoutes } from './gateway/rules/shipments/piece-logs-route.ts';
import { webtoolLogsRoutes } from './gateway/webtool-logs.ts';
import { searchRoutes } from './gateway/search.ts';
import { dashboardRoutes } from './gateway/dashboard.ts';
import { debugRoutes } from './gateway/debug-info.ts';
import { FILE_TOO_LARGE, registerUploadRoutes, UPLOAD_BODY_LIMIT } from './gateway/uploads.ts';
import { createJobQueue } from './gateway/background-jobs.ts';
import { locationGeneratorRoutes, locationGeneratorWork } from './gateway/location-generator/routes.ts';
import { createWritePipeline } from './gateway/write-pipeline.ts';
import { createWebhookDelivery, type WebhookDeliveryOptions } from './gateway/webhook-delivery.ts';
import { startChangeFeed, type ChangeFeed } from './gateway/live/change-feed.ts';
import { keptRoles } from './gateway/caller-access.ts';
import { keptCounts } from './gateway/kept-counts.ts';
import { createLiveStreams, type LiveStreamLimits, type LiveStreams } from './gateway/live/stream-route.ts';
import { createWebhookRules, WEBHOOKS } from './gateway/rules/integrations/webhooks.ts';
import { HARDWARE_BADGES_JOB, hardwareBadgesWork } from './gateway/rules/hardware/hardware-badges-refresh.ts';
import {
  SERVICE_POINT_REPORT_JOB,
  servicePointReportWork,
} from './gateway/rules/service-points/service-point-report.ts';
import { SHIPMENT_REPORT_JOB, shipmentReportWork } from './gateway/rules/shipments/shipment-reports.ts';

export interface AppOptions {
  db: Db;
  identity: Identity;
  /** Folder of the built app; served with a history fallback when it exists. */
  distDir?: string;
  logger?: FastifyServerOptions['logger'];
  /** The webhook delivery worker's settings (server/gateway/webhook-delivery.ts): local mode, clock, timeout. */
  webhooks?: Omit<WebhookDeliveryOptions, 'db'>;
  /** Background jobs: the lease after which a silent process's job is taken over (seconds, default 60). */
  jobs?: { leaseSeconds?: number };
  /** The live streams' limits and clock (server/gateway/live/stream-route.ts). */
  live?: Partial<LiveStreamLimits>;
}

const BODY_LIMIT = 1024 * 1024;

/** Scripts only from our own origin; MUI/emotion need inline styles. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * What Vite writes under `assets/` is named by its content's hash: a changed file gets a new name,
 * so a browser keeps it for a year without asking. Everything else (index.html, which names the
 * current hashes, and the icons) is checked with the server on every use.
 */
export function cacheControlOf(relativePath: string): string {
  return relativePath.split(path.sep)[0] === 'assets' ? 'public, max-age=31536000, immutable' : 'no-cache';
}

export async function buildApp(options: AppOptions) {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT,
    // The SigV4 signature covers the Host the browser saw; never rewrite it.
    trustProxy: false,
  });

  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    request.rawBody = text;
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      // Credentials are checked before the body is judged, so a bad body is marked, not refused here.
      done(null, INVALID_JSON);
    }
  });

  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) return reply.status(error.status).send(error.toBody());
    if (error instanceof DatabaseUnavailableError) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .status(DATABASE_UNAVAILABLE.status)
        .header('retry-after', String(DATABASE_UNAVAILABLE.retryAfterSeconds))
        .send(databaseUnavailableBody);
    }
    const status = error.statusCode ?? 500;
    // On an upload the file is what makes a body too large: the user gets the catalogue's words for it.
    if (
      error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' &&
      request.method === 'PUT' &&
      request.url.startsWith('/webtool/')
    ) {
      return reply.status(413).send(new HttpError(413, FILE_TOO_LARGE.message, FILE_TOO_LARGE.details).toBody());
    }
    if (status < 500) {
      const message =
        error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? 'The request body is too large.'
          : error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
            ? 'Unsupported content type.'
            : error.message;
      return reply.status(status).send({ success: false, message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ success: false, message: 'Oops server error' });
  });

  // Only uploads carry a file; every other body keeps the smaller limit.
  app.addHook('onRoute', (route) => {
    if (route.method === 'PUT' && route.url.startsWith('/webtool/')) route.bodyLimit ??= UPLOAD_BODY_LIMIT;
  });

  app.addHook('onSend', async (_request, reply) => {
    // A route serving a file sets its own, stricter policy.
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
  });

  const schemas = loadSchemas();
  const registry = createSchemaRegistry(schemas);
  const resources = loadResources(schemas);
  const validate = (resource: ResourceDefinition, doc: Doc, { partial }: { partial: boolean }) =>
    validateRecord(registry, resource.schemaId, doc, { partial });
  const rules = {
    ...resourceRules,
    [WEBHOOKS]: createWebhookRules(options.webhooks?.now),
    'partners/carrier': createCarrierRules(options.webhooks?.local ?? true),
  };
  const webhookDelivery = createWebhookDelivery({ dispatchMs: 5000, ...options.webhooks, db: options.db });
  const jobs = createJobQueue({
    db: options.db,
    leaseSeconds: options.jobs?.leaseSeconds,
    work: {
      ...webhookDelivery.work,
      [SERVICE_POINT_REPORT_JOB]: servicePointReportWork(options.db, resources),
      [SHIPMENT_REPORT_JOB]: shipmentReportWork(options.db),
      [HARDWARE_BADGES_JOB]: hardwareBadgesWork(options.db),
      [INVOICE_JOB]: invoiceWork(options.db),
      [LICENCE_JOB]: licenceWork(options.db),
      [REMINDER_JOB]: reminderWork(options.db),
      ...locationGeneratorWork(
        options.db,
        createWritePipeline({ db: options.db, resources, validate, rules }),
        resources,
      ),
    },
    // The hardware units' warranty and sync badges change with time alone (issue 33.5).
    schedules: [
      { kind: HARDWARE_BADGES_JOB, everySeconds: 3600 },
      // The end users' reminders fall due with time alone (issue 28.3).
      { kind: REMINDER_JOB, everySeconds: 900 },
    ],
  });
  app.addHook('onClose', async () => {
    await webhookDelivery.stop();
    await jobs.stop();
  });
  app.decorate('webhookDelivery', webhookDelivery);
  // Live updates (issue 31.2): the committed changes every process hears, streamed to signed-in users.
  const changeFeed = await startChangeFeed(options.db, resources);
  const liveStreams = createLiveStreams(changeFeed, resources, options.live);
  app.addHook('preClose', async () => liveStreams.endAll());
  app.addHook('onClose', async () => changeFeed.close());
  app.decorate('live', { feed: changeFeed, streams: liveStreams });
  await options.identity.register(app);
  await registerWebtool(app, {
    db: options.db,
    roles: keptRoles(options.db, changeFeed),
    counts: keptCounts(changeFeed),
    identity: options.identity,
    resources,
    jobs,
    validate,
    validateForm: (formSchemaId, body) =>
      validateRecord(
        registry,
        formSchemaId,
        formValuesOf(formModel(registry.schema(formSchemaId), registry.resolveRef), body),
      ),
    rules,
    special: {
      ...identityAccessRoutes(options.identity),
      'GET lists': listsRoute,
      ...webtoolLogsRoutes,
      ...pieceLogsRoutes(resources),
      ...dashboardRoutes(resources, registry),
      ...debugRoutes,
      ...locationGeneratorRoutes({ jobs }),
      ...searchRoutes(resources),
      'GET stream': liveStreams.route,
    },
  });

  // Which gateway process answered, for a supervisor, a load test or a person behind one port (WORKERS).
  app.get('/healthz', async () => ({ ok: true, process: process.pid }));
  registerUploadRoutes(app, options.db);

  // The local stand-in of the file storage: public help content (spec 01 §7).
  await app.register(fastifyStatic, {
    root: path.join(path.dirname(fileURLToPath(import.meta.url)), 'files'),
    prefix: '/files/',
    decorateReply: false,
  });

  const distDir = options.distDir;
  if (distDir && existsSync(path.join(distDir, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      // build-time brotli and gzip copies (scripts/precompress.ts), chosen by Accept-Encoding, with Vary
      preCompressed: true,
      globIgnore: ['**/*.br', '**/*.gz'],
      cacheControl: false,
      setHeaders: (reply, file) => reply.header('cache-control', cacheControlOf(path.relative(distDir, file))),
    });
    app.setNotFoundHandler((request, reply) => {
      const url = request.url.split('?')[0];
      const isApi =
        url === '/webtool' || url.startsWith('/webtool/') || url.startsWith('/__') || url.startsWith('/files/');
      if ((request.method === 'GET' || request.method === 'HEAD') && !isApi && !path.extname(url)) {
        return reply.sendFile('index.html');
      }
      return reply.status(404).send({ success: false, message: 'Not found' });
    });
  } else {
    app.setNotFoundHandler((_request, reply) => reply.status(404).send({ success: false, message: 'Not found' }));
  }

  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The webhook delivery worker: tests queue due events with `dispatchDue()` after moving its clock. */
    webhookDelivery: ReturnType<typeof createWebhookDelivery>;
    /** The live updates: the process's change feed and its open streams. */
    live: { feed: ChangeFeed; streams: LiveStreams };
  }
}
