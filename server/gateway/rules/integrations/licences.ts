import type { Db } from '../../../db/adapter.ts';
import type { JobWork } from '../../background-jobs.ts';
import { ownsPartner } from '../../identity-access/context.ts';
import { HttpError, keyedError } from '../../http-error.ts';
import type { ResourceRules } from '../../resource-rules.ts';
import { refusedFields } from '../../write-pipeline.ts';
import { formatReportFile } from '../../../../src/schema/report-file.ts';
import { LicenseBadge } from '../../../../src/types/generated/codes.ts';
import type { FieldErrors } from '../../../../src/contract/errors.ts';
import { periodDays, periodErrors, type LicencePeriod } from '../../../../src/contract/licence-period.ts';
import { languageOf, startSheet, translatorFor, type Language } from '../shared/pdf-sheet.ts';
import { REPORT_LINK_SECONDS } from '../shipments/shipment-reports.ts';
import { HARDWARE_OWNERS as OWNERS, HARDWARE_UNITS as HARDWARE, inStore, SERVICE_POINTS } from '../shared/endpoints.ts';
import { queryParams, requiredText } from '../shared/params.ts';
export { LICENCES } from '../shared/endpoints.ts';

/**
 * Hardware licences (issue 27.6, spec 02 §7 `hardware/license`): the licence days of an owner's units in a
 * period of whole months, from the units' licence badge history (migration 041). `GET webtool/hardware/license`
 * with `hardware_owners`, `from_year`, `from_month`, `to_year`, `to_month` (`opname=search`, or no opname)
 * answers a `report_id` (also as `request_id`); the days are counted in the background and `opname=find` with
 * it answers `pending`, then `ready` with the file (a row per unit) and the totals; `opname=export_pdf` draws
 * the same result as a PDF. The period ends after (or with) its start, and never in the current month or
 * later: a month still running has no final count.
 *
 * A badge holds from the day of its history row until the unit's next row; only Activated days are licence
 * days, the days in each other badge are counted beside them so the figure can be checked; days before a
 * unit's first row (it was not yet made) count in no badge.
 */

export const LICENCE_JOB = 'hardware_licences';
const LICENCE_FORM = 'licence-request';

/** The clock the period rule reads "this month" from; tests move it. */
export const licenceClock = { now: () => new Date() };

/** Records a unit's new licence badge, in the transaction of the write that changed it. */
export async function recordLicenceChange(
  tx: Db,
  hardwareKey: string,
  status: number,
  changedBy: string | null,
  at: Date = new Date(),
) {
  await tx.query(
    `INSERT INTO licence_badge_history (hardware_key, license_status, valid_from, changed_at, changed_by)
     VALUES ($1, $2, $3::date, $4, $5)`,
    [hardwareKey, status, at.toISOString().slice(0, 10), at.toISOString(), changedBy],
  );
}

export interface BadgeChange {
  day: string;
  status: number;
}

export type BadgeDays = Record<'activated' | 'no_fee' | 'terminated' | 'pending', number>;
const BADGE_FIELDS: Record<number, keyof BadgeDays> = {
  [LicenseBadge.Activated]: 'activated',
  [LicenseBadge.NoFee]: 'no_fee',
  [LicenseBadge.Terminated]: 'terminated',
  [LicenseBadge.Pending]: 'pending',
};

const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000);

/**
 * The days of `from`..`to` (both included) spent in each badge, from a unit's history in order (day, then
 * the order it was written: the last change of a day holds that day).
 */
export function badgeDays(history: readonly BadgeChange[], from: string, to: string): BadgeDays {
  const days: BadgeDays = { activated: 0, no_fee: 0, terminated: 0, pending: 0 };
  const first = dayNumber(from);
  const last = dayNumber(to);
  history.forEach((change, index) => {
    const start = Math.max(dayNumber(change.day), first);
    const next = history[index + 1];
    const end = Math.min(next ? dayNumber(next.day) - 1 : last, last);
    const field = BADGE_FIELDS[change.status];
    if (field && end >= start) days[field] += end - start + 1;
  });
  return days;
}

export interface LicenceRow extends BadgeDays {
  hardware_name: string;
  serial_ids: string;
  hardware_owner: string;
  model_name: string;
  service_point: string;
  licence_days: number;
}

export interface LicenceResult {
  owners: string[];
  from: string;
  to: string;
  period_days: number;
  rows: LicenceRow[];
  totals: BadgeDays & { units: number; licence_days: number };
}

/** The licence days of the owners' units that existed in the period, by owner then unit name. */
export async function computeLicences(db: Db, owners: number[], period: LicencePeriod): Promise<LicenceResult> {
  const { from, to, days } = periodDays(period);
  const found = await db.query<{
    name: string | null;
    serial_ids: string[] | null;
    owner_name: string | null;
    model_name: string | null;
    service_point: string | null;
    history: BadgeChange[];
  }>(
    `SELECT u.doc->>'name' AS name, u.doc->'serial_ids' AS serial_ids, o.doc->>'name' AS owner_name,
            u.doc->>'model_name' AS model_name, sp.doc->>'name' AS service_point,
            json_agg(json_build_object('day', to_char(h.valid_from, 'YYYY-MM-DD'), 'status', h.license_status)
                     ORDER BY h.valid_from, h.id) AS history
       FROM records u
       JOIN licence_badge_history h ON h.hardware_key = u.key AND h.valid_from <= $3::date
       LEFT JOIN records o ON o.resource = $4 AND o.key = u.doc->>'hardware_owner_id'
       LEFT JOIN records sp ON ${inStore(SERVICE_POINTS, 'sp')} AND sp.key = u.doc->>'service_point_id'
      WHERE u.resource = $1 AND u.doc->>'hardware_owner_id' = ANY($2::text[])
      GROUP BY u.key, u.doc, o.doc, sp.doc`,
    [HARDWARE, owners.map(String), to, OWNERS],
  );
  const rows: LicenceRow[] = [];
  for (const unit of found.rows) {
    const counted = badgeDays(unit.history, from, to);
    // A unit made after the period has nothing to show.
    if (!Object.values(counted).some(Boolean)) continue;
    rows.push({
      hardware_name: unit.name ?? '',
      serial_ids: (unit.serial_ids ?? []).join(', '),
      hardware_owner: unit.owner_name ?? '',
      model_name: unit.model_name ?? '',
      service_point: unit.service_point ?? '',
      licence_days: counted.activated,
      ...counted,
    });
  }
  rows.sort(
    (a, b) =>
      a.hardware_owner.localeCompare(b.hardware_owner) ||
      a.hardware_name.localeCompare(b.hardware_name, undefined, { numeric: true }),
  );
  const sum = (field: keyof BadgeDays | 'licence_days') => rows.reduce((total, row) => total + row[field], 0);
  const ownerNames = await db.query<{ name: string }>(
    `SELECT doc->>'name' AS name FROM records WHERE resource = $1 AND key = ANY($2::text[]) ORDER BY doc->>'name'`,
    [OWNERS, owners.map(String)],
  );
  return {
    owners: ownerNames.rows.map((row) => row.name),
    from,
    to,
    period_days: days,
    rows,
    totals: {
      units: rows.length,
      licence_days: sum('licence_days'),
      activated: sum('activated'),
      no_fee: sum('no_fee'),
      terminated: sum('terminated'),
      pending: sum('pending'),
    },
  };
}

interface LicencePayload extends LicencePeriod {
  hardware_owners: number[];
}

export function licenceWork(db: Db): JobWork {
  return async (payload, progress) => {
    const request = payload as unknown as LicencePayload;
    const result = await computeLicences(db, request.hardware_owners, request);
    await progress(100);
    return result as unknown as Record<string, unknown>;
  };
}

/** The file's columns: the page's table and the CSV, named by `licences.columns.<name>`. */
export const LICENCE_COLUMNS = [
  'hardware_name',
  'serial_ids',
  'hardware_owner',
  'model_name',
  'service_point',
  'licence_days',
  'no_fee',
  'terminated',
  'pending',
] as const;

/** Owners as a comma list or repeated parameter, the period's parts as numbers: typed before the form's check. */
function typedRequest(query: Record<string, string | string[]>) {
  const values: Record<string, unknown> = {};
  const raw = query.hardware_owners;
  if (raw !== undefined && raw !== '') {
    values.hardware_owners = (Array.isArray(raw) ? raw : String(raw).split(','))
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  }
  for (const field of ['from_year', 'from_month', 'to_year', 'to_month'] as const) {
    const value = query[field];
    if (value !== undefined && value !== '') values[field] = /^\d+$/.test(String(value)) ? Number(value) : value;
  }
  return values;
}

const reportParams = queryParams({ report_id: requiredText('report_id') });

/** `report_id`, or `request_id` as the other report pages name it. */
const reportIdOf = (query: Record<string, string>) =>
  reportParams({ report_id: query.report_id ?? query.request_id }).report_id;

const expired = () => new HttpError(404, 'The report file has expired.', { message_key: 'catalogue.report_expired' });

/** The PDF of a result: the owners, the period, a row per unit and the totals, in the language's words. */
export function licencePdf(result: LicenceResult, language: Language, now = new Date()): Promise<Buffer> {
  const { doc, done, t, heading, line, finish } = startSheet(language, {
    title: `${translatorFor(language)('licences.title')} ${result.from} – ${result.to}`,
    label: 'tickets.pdf.label',
    generated: 'tickets.pdf.generated',
  });
  const dates = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' });
  const day = (value: string) => dates.format(new Date(`${value}T00:00:00Z`));
  doc.font('bold').fontSize(18).fillColor('black').text(t('licences.title'));
  heading(t('licences.pdf.request'));
  line(t('licences.pdf.owners'), result.owners.join(', '));
  line(t('licences.pdf.period'), `${day(result.from)} – ${day(result.to)}`);
  line(t('licences.pdf.period_days'), String(result.period_days));
  heading(t('licences.pdf.units'));
  // Unit, owner, model, service point, then the day counts right-aligned.
  const columns = [
    { x: 40, width: 98 },
    { x: 140, width: 68 },
    { x: 210, width: 58 },
    { x: 270, width: 92 },
    { x: 364, width: 45 },
    { x: 412, width: 45 },
    { x: 460, width: 45 },
    { x: 508, width: 45 },
  ];
  const row = (cells: string[], bold = false) => {
    doc.font(bold ? 'bold' : 'regular').fontSize(7.5);
    const height = Math.max(
      ...cells.map((text, index) => doc.heightOfString(text || '-', { width: columns[index].width })),
    );
    if (doc.y + height > doc.page.height - 70) doc.addPage();
    const y = doc.y;
    cells.forEach((text, index) =>
      doc.text(text || '-', columns[index].x, y, {
        width: columns[index].width,
        align: index >= 4 ? 'right' : 'left',
      }),
    );
    doc.x = 40;
    doc.y = y + height + 3;
  };
  const header = ['hardware_name', 'hardware_owner', 'model_name', 'service_point', 'licence_days', 'no_fee']
    .concat(['terminated', 'pending'])
    .map((column) => t(`licences.columns.${column}`));
  row(header, true);
  for (const unit of result.rows) {
    row([
      unit.serial_ids ? `${unit.hardware_name} (${unit.serial_ids})` : unit.hardware_name,
      unit.hardware_owner,
      unit.model_name,
      unit.service_point,
      String(unit.licence_days),
      String(unit.no_fee),
      String(unit.terminated),
      String(unit.pending),
    ]);
  }
  const { totals } = result;
  row(
    [
      t('licences.total_units', { smart_count: totals.units }),
      '',
      '',
      '',
      String(totals.licence_days),
      String(totals.no_fee),
      String(totals.terminated),
      String(totals.pending),
    ],
    true,
  );
  doc.x = 50;
  finish(now);
  return done;
}

export const licenceRules: ResourceRules = {
  queries: {
    async search(ctx, query) {
      const checked = ctx.validateForm(LICENCE_FORM, typedRequest(query));
      // The schema's errors first; the period's rules on the fields the schema let through.
      const errors: FieldErrors = {
        ...periodErrors(checked.data as Partial<LicencePeriod>, licenceClock.now()),
        ...(checked.valid ? {} : checked.errors),
      };
      if (Object.keys(errors).length) throw refusedFields(errors);
      const payload = checked.data as unknown as LicencePayload;
      // Owners that exist and the caller may read (every owner for an operator).
      const known = await ctx.db.query<{ key: string }>(
        `SELECT key FROM records WHERE resource = $1 AND key = ANY($2::text[])`,
        [OWNERS, payload.hardware_owners.map(String)],
      );
      const readable = known.rows.filter((row) => ownsPartner(ctx.access, 'hardware_provider', Number(row.key)));
      if (readable.length !== payload.hardware_owners.length) {
        throw refusedFields({ hardware_owners: { message: 'validation.choice' } });
      }
      const id = await ctx.jobs.enqueue(LICENCE_JOB, ctx.access.caller.username, { ...payload });
      return { success: true, report_id: id, request_id: id };
    },

    async find(ctx, query) {
      const job = await ctx.jobs.state(reportIdOf(query), ctx.access.caller.username);
      if (!job) throw expired();
      if (job.status !== 'ready') return { success: true, ...job };
      const result = job.result as unknown as LicenceResult;
      return {
        success: true,
        status: 'ready',
        file: formatReportFile(
          [...LICENCE_COLUMNS],
          result.rows.map((row) => LICENCE_COLUMNS.map((column) => row[column])),
        ),
        owners: result.owners,
        from: result.from,
        to: result.to,
        period_days: result.period_days,
        totals: result.totals,
        expires_at: new Date(Date.now() + REPORT_LINK_SECONDS * 1000).toISOString(),
      };
    },

    async export_pdf(ctx, query, headers) {
      const job = await ctx.jobs.state(reportIdOf(query), ctx.access.caller.username);
      if (!job) throw expired();
      if (job.status !== 'ready') throw keyedError(409, 'catalogue.licence_not_ready');
      const result = job.result as unknown as LicenceResult;
      const pdf = await licencePdf(result, languageOf(query, headers));
      return {
        success: true,
        file_name: `licences-${result.from}-${result.to}.pdf`,
        content_type: 'application/pdf',
        data: pdf.toString('base64'),
      };
    },
  },

  /**
   * `GET webtool/hardware/license` without an opname: the search (or its result by `report_id`), as the spec
   * names its parameters; without any, nothing is searched and nothing is stored to list.
   */
  async list(ctx, query) {
    if (query.report_id) return licenceRules.queries!.find(ctx, query, {});
    const asked = ['hardware_owners', 'from_year', 'from_month', 'to_year', 'to_month'].some((name) => query[name]);
    if (asked) return licenceRules.queries!.search(ctx, query, {});
    return { success: true, data: [], total: 0 };
  },
};
