import type { AccessLevel } from './permissions.ts';

/** What a user may do to a resource besides reading it (react-admin actions, plus the bulk import). */
export const writeActions = ['create', 'edit', 'delete', 'import'] as const;
export type WriteAction = (typeof writeActions)[number];

export interface ActionRule {
  /** Feature levels allowed to do it. */
  levels: readonly AccessLevel[];
  /** Partner types allowed to do it; 'All' leaves it to the resource's own partner types. */
  partnerTypes: readonly string[] | 'All';
}

/** `x-resource.actions`: per write action, who may do it; an action left out takes the default. */
export type ActionRules = Partial<Record<WriteAction, Partial<ActionRule>>>;

export interface ResourceAccessRule {
  partnerTypes: readonly string[] | 'All';
  actions?: ActionRules;
}

export interface Actor {
  partnerType: string;
  superAdmin: boolean;
  /** The user's level of the resource's feature; undefined when the feature is not held. */
  level: AccessLevel | undefined;
}

const READ_ACTIONS = new Set(['list', 'show', 'export', 'read']);

/** react-admin's clone opens a create form; anything else unnamed is a change to a record. */
function writeActionOf(action: string): WriteAction {
  if ((writeActions as readonly string[]).includes(action)) return action as WriteAction;
  return action === 'clone' ? 'create' : 'edit';
}

/** Writing needs the advance level by default, from a partner type that may open the resource. */
export function actionRule(rule: ResourceAccessRule, action: WriteAction): ActionRule {
  const declared = rule.actions?.[action];
  return { levels: declared?.levels ?? ['advance'], partnerTypes: declared?.partnerTypes ?? 'All' };
}

const includesType = (types: readonly string[] | 'All', partnerType: string) =>
  types === 'All' || types.includes(partnerType);

/**
 * The one rule the app (buttons, pages) and the gateway (403) both apply: reading needs the
 * resource's partner type and any level of its feature; a write action needs, in addition, a level
 * and a partner type its `x-resource.actions` entry names. Super admins pass.
 */
export function mayDo(actor: Actor, rule: ResourceAccessRule, action: string): boolean {
  if (actor.superAdmin) return true;
  if (actor.level === undefined || !includesType(rule.partnerTypes, actor.partnerType)) return false;
  if (READ_ACTIONS.has(action)) return true;
  const { levels, partnerTypes } = actionRule(rule, writeActionOf(action));
  return levels.includes(actor.level) && includesType(partnerTypes, actor.partnerType);
}
