import type { Db } from '../../../db/adapter.ts';
import type { ServicePoint } from '../../../../src/types/generated/service-point.ts';
import { accessLevel, featureOption } from '../../../../src/schema/permissions.ts';
import { HttpError, noPermission } from '../../http-error.ts';
import type { Doc } from '../../record-store.ts';
import type { StoredRecord } from '../../record-writes.ts';
import type { OpnameContext, RuleContext } from '../../resource-rules.ts';
import { recordKeyOf, refusedFields } from '../../write-pipeline.ts';
import { emailOfUserId, scoutNamed, scoutsFor } from '../../identity-access/scouts.ts';
import { loadSchemas } from '../../resource-registry.ts';
import {
  primaryLocaleOf,
  type CountryLanguages,
  type PrimaryLocale,
} from '../../../../src/schema/validators/default-description.ts';
import { HARDWARE_UNITS, SERVICE_POINT_GROUPS } from '../shared/endpoints.ts';
import { countDocs, readDoc } from '../shared/docs.ts';
import { optionalVersion } from '../shared/values.ts';

/**
 * The service point's own rules beyond the status ones of service-points.ts: the scout level, the
 * limits a schema cannot say (units already added, a test service point never live), the fields the
 * gateway derives (group name, scout e-mail, incomplete) and the small dialogs of the edit page.
 */

const TEST_NEVER_LIVE = 'A test service point can never become live';
const SCOUT_RECORD_LOCKED = 'A scout changes a service point only while it is New or Qualified';
const SCOUT_FIELD_LOCKED = 'A scout cannot change this field';
const SCOUT_STATUS = 'A scout sets the status to New or Qualified only';

/** What a scout may set the status to: proposing (New) and qualifying (Qualified) a location. */
const SCOUT_STATUSES: readonly number[] = [1, 2];
const NEW = 1;
const ACTIVE = 7;

const catalogueRefusal = (status: number, message: string, key: string, field?: string) =>
  new HttpError(status, message, {
    message_key: `catalogue.${key}`,
    ...(field && { errors: { [field]: { message: `catalogue.${key}` } } }),
  });

/** Whether the caller holds only the scout level of service points (feature 240). */
export function isScout(ctx: Pick<RuleContext, 'access' | 'resource'>): boolean {
  return !ctx.access.superAdmin && accessLevel(ctx.access.permissions, ctx.resource.features) === 'scout';
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * A scout proposes and follows locations: creates them New with themselves as the scout contact, and
 * changes only the location fields (`x-resource.scoutFields`) of their own records while New or Qualified.
 */
function scoutChecked(ctx: RuleContext, doc: ServicePoint, existing: StoredRecord<ServicePoint> | undefined) {
  const allowed = new Set(ctx.resource.scoutFields);
  const derived = new Set(ctx.resource.fields.filter((field) => field.readOnly).map((field) => field.source));
  const before = existing?.doc;
  if (before && !SCOUT_STATUSES.includes(before.status)) {
    throw catalogueRefusal(403, SCOUT_RECORD_LOCKED, 'scout_record_locked');
  }
  const email = ctx.access.caller.email;
  if (!email) throw noPermission();
  const defaults = new Map(ctx.resource.fields.map((field) => [field.source, field.defaultValue]));
  const fields = new Set([...Object.keys(doc), ...Object.keys(before ?? {})]);
  for (const field of fields) {
    if (allowed.has(field) || derived.has(field) || field === ctx.resource.id || field === 'scout_contact') continue;
    const was = before ? before[field as keyof ServicePoint] : defaults.get(field);
    if (!same(doc[field as keyof ServicePoint], was)) {
      throw catalogueRefusal(422, SCOUT_FIELD_LOCKED, 'scout_field_locked', field);
    }
  }
  if (before && !SCOUT_STATUSES.includes(doc.status)) {
    throw catalogueRefusal(422, SCOUT_STATUS, 'scout_status', 'status');
  }
  return {
    ...doc,
    status: before ? doc.status : NEW,
    scout_contact: before ? before.scout_contact : email,
  };
}

/** The hardware units whose service point it is, planned or installed. */
async function unitCount(tx: Db, servicePointId: number): Promise<number> {
  return countDocs(tx, HARDWARE_UNITS, { service_point_id: servicePointId });
}

/** Spec 02 §5: max hardware units never below the number already added. */
async function assertUnitLimit(tx: Db, doc: ServicePoint, before: ServicePoint | undefined) {
  if (!before || doc.max_hardware_units === undefined || same(doc.max_hardware_units, before.max_hardware_units)) {
    return;
  }
  const count = await unitCount(tx, before.service_point_id!);
  if (doc.max_hardware_units < count) {
    throw refusedFields({ max_hardware_units: { message: 'validation.below_unit_count', args: { count } } });
  }
}

/** Spec 02 §4: a test service point is permanent and never becomes live (status Active or active on). */
function assertTestNeverLive(doc: ServicePoint, before: ServicePoint | undefined) {
  if (doc.test_sp !== true) return;
  const wasTest = before?.test_sp === true;
  if (doc.status === ACTIVE && !(wasTest && before?.status === ACTIVE)) {
    throw catalogueRefusal(422, TEST_NEVER_LIVE, 'test_sp_never_live', 'status');
  }
  if (doc.active === true && !(wasTest && before?.active === true)) {
    throw catalogueRefusal(422, TEST_NEVER_LIVE, 'test_sp_never_live', 'active');
  }
}

/**
 * The e-mail of a scout contact, which a scout's list is scoped by: the contact itself, or the e-mail of
 * the user a numeric user_id names (none when no user has it).
 */
async function scoutEmailOf(tx: Db, contact: string | undefined): Promise<string | undefined> {
  const value = contact?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return (await emailOfUserId(tx, Number(value)))?.toLowerCase();
  return value.includes('@') ? value.toLowerCase() : undefined;
}

/**
 * Spec 01 §3 and §5: a scout contact names a scout, by e-mail or user_id, among the scouts the caller
 * may name (`webtool/lists?type=scout`); anything else is refused on the field, and nothing is written.
 */
async function assertScoutContact(ctx: RuleContext, doc: ServicePoint, before: ServicePoint | undefined) {
  const contact = doc.scout_contact;
  if (contact === undefined || contact === before?.scout_contact) return;
  if (!scoutNamed(await scoutsFor(ctx.tx, ctx.access), contact)) {
    throw refusedFields({ scout_contact: { message: 'validation.not_a_scout' } });
  }
}

async function groupNameOf(tx: Db, groupId: number | undefined): Promise<string | undefined> {
  if (groupId === undefined) return undefined;
  const group = await readDoc<{ group_name?: string | null }>(tx, SERVICE_POINT_GROUPS, groupId);
  return group?.group_name ?? undefined;
}

/**
 * What a service point still needs before it can go live (documented in the README): an address picked
 * from the address index (address_id), coordinates, opening hours with at least one open day, and a
 * delivery method.
 */
export function isIncomplete(doc: ServicePoint): boolean {
  const openDay = Object.values(doc.opening_hours ?? {}).some((day) => day && day.closed !== true);
  return (
    doc.address_id === undefined ||
    doc.latitude === undefined ||
    doc.longitude === undefined ||
    !openDay ||
    !doc.delivery_methods?.length
  );
}

/** The default language of a service point's descriptions, as its schema says (`x-default-description`). */
const DESCRIPTION_RULE = (() => {
  const schema = loadSchemas().find((candidate) => candidate.$id === 'service-point');
  const properties = schema?.properties as Record<string, Record<string, unknown>> | undefined;
  // Under `then`: an empty list (no public description at all) asks for none.
  const then = properties?.descriptions?.then as Record<string, unknown> | undefined;
  return then?.['x-default-description'] as PrimaryLocale | CountryLanguages;
})();

type Translation = NonNullable<ServicePoint['descriptions']>[number];

/**
 * The public description and its translations kept in step: a new list of translations gives the
 * description and its language from the default one (the country's language); a description given
 * alone (the import, an older client) becomes that language's translation for the service point's country.
 */
function withDescriptions(given: ServicePoint, before: ServicePoint | undefined): ServicePoint {
  // Each translation as its three fields, whatever else a client's list held (a form's row keys).
  const threeFields = (items: Translation[] | undefined): Translation[] =>
    (items ?? []).map(({ text, language_code, country }) => ({
      ...(text !== undefined && { text }),
      language_code,
      country,
    }));
  const list = threeFields(given.descriptions);
  const doc: ServicePoint = given.descriptions ? { ...given, descriptions: list } : given;
  const primary = primaryLocaleOf(DESCRIPTION_RULE, doc);
  // Compared field by field: the stored list comes back with its keys in the database's order.
  if (list.length && !same(list, threeFields(before?.descriptions))) {
    const chosen = list.find(
      (item) => item.language_code === primary?.language && item.country === primary?.country && item.text?.trim(),
    );
    return chosen ? { ...doc, description: chosen.text, description_language: chosen.language_code } : doc;
  }
  const described =
    !same(doc.description, before?.description) || !same(doc.description_language, before?.description_language);
  const language = doc.description_language ?? (primary?.language as Translation['language_code'] | undefined);
  if (!described || !doc.description?.trim() || !language) return doc;
  const others = list.filter((item) => !(item.language_code === language && item.country === doc.country));
  return {
    ...doc,
    descriptions: [{ text: doc.description, language_code: language, country: doc.country }, ...others],
  };
}

/** The fields the gateway derives on every write: a client cannot set them (they are readOnly). */
async function withDerivedFields(tx: Db, doc: ServicePoint, creating: boolean): Promise<ServicePoint> {
  const derived: ServicePoint = { ...doc, incomplete: isIncomplete(doc) };
  // A new service point has no hardware yet; the hardware's writes keep these after (service-point-hardware-derived.ts).
  if (creating) Object.assign(derived, { has_hardware: false, service_point_hardware_unit_id: null });
  const groupName = await groupNameOf(tx, doc.service_point_group_id);
  const scoutEmail = await scoutEmailOf(tx, doc.scout_contact);
  if (groupName === undefined) delete derived.group_name;
  else derived.group_name = groupName;
  if (scoutEmail === undefined) delete derived.scout_email;
  else derived.scout_email = scoutEmail;
  return derived;
}

/** The checks and derived fields of every write, called from the service point's beforeWrite. */
export async function servicePointCoreChecks(
  ctx: RuleContext,
  doc: ServicePoint,
  existing: StoredRecord<ServicePoint> | undefined,
): Promise<ServicePoint> {
  const scout = isScout(ctx);
  const checked = scout ? scoutChecked(ctx, doc, existing) : doc;
  // A scout's own proposals name themselves, set above.
  if (!scout) await assertScoutContact(ctx, checked, existing?.doc);
  await assertUnitLimit(ctx.tx, checked, existing?.doc);
  assertTestNeverLive(checked, existing?.doc);
  return withDerivedFields(ctx.tx, withDescriptions(checked, existing?.doc), !existing);
}

/**
 * A dialog of the edit page (`x-record-actions`): its form's fields, checked by the form schema,
 * written over the stored service point through the pipeline (audited, the whole record checked,
 * 409 on a stale version).
 */
function formAction(formSchemaId: string | undefined, change: (doc: ServicePoint, values: Doc) => ServicePoint) {
  return async (ctx: OpnameContext, body: Doc) => {
    const data = await ctx.writes.change(
      recordKeyOf(ctx.resource, body),
      async (_tx, existing) => {
        let values: Doc = {};
        if (formSchemaId) {
          const form = ctx.validateForm(formSchemaId, body);
          if (!form.valid) throw refusedFields(form.errors);
          values = form.data;
        }
        return change(existing.doc as unknown as ServicePoint, values) as unknown as Doc;
      },
      optionalVersion(body),
    );
    return { success: true, data };
  };
}

/** `set_test_sp` needs the test shipment option (spec 01 §6): without it the dialog is not offered. */
const setTestServicePoint = formAction(undefined, (doc) => ({ ...doc, test_sp: true }));

export const servicePointCorePatchOpnames: Record<string, (ctx: OpnameContext, body: Doc) => Promise<unknown>> = {
  set_scout_contact: formAction('service-point-scout-contact', (doc, values) => ({
    ...doc,
    scout_contact: values.scout_contact as string,
  })),
  set_location_owner: formAction('service-point-location-owner', (doc, values) => ({
    ...doc,
    location_owner_id: values.location_owner_id as number,
  })),
  set_service_point_group: formAction('service-point-group-choice', (doc, values) => ({
    ...doc,
    service_point_group_id: values.service_point_group_id as number,
  })),
  set_test_sp: async (ctx, body) => {
    if (!featureOption(ctx.access.permissions, ctx.resource.features, 'test_shipment')) throw noPermission();
    return setTestServicePoint(ctx, body);
  },
  terminate: formAction(undefined, (doc) => ({ ...doc, is_terminated: true })),
};
