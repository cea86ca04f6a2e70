import type { Piece } from '../../../../src/types/generated/piece.ts';
import { featureOption, type PermissionSet } from '../../../../src/schema/permissions.ts';
import { features } from '../../../../src/schema/features.ts';

/** The web app link option of spec 01 §6, on the shipments feature. */
export const WEB_APP_LINK_OPTION = 'web_app_link';

/** The end-user web app of the demo network; a deployment names its own with END_USER_APP_URL. */
const DEMO_END_USER_APP = 'https://webapp.locker.test';

/**
 * The link to a piece in the end-user web app (the page its end user follows the parcel on), which the
 * piece detail carries only for a caller whose shipments policy has the web app link option: the app
 * shows the link from it, and a caller without the option never receives it. Every parcel has its page
 * there, also one of a carrier with its own end-user app (`own_end_user_app`), whose end users are sent to
 * the carrier's app: support staff still open the network's page to see what the end user would.
 */
export function webAppLink(
  permissions: PermissionSet,
  piece: Pick<Piece, 'piece_id'>,
  base = process.env.END_USER_APP_URL?.trim() || DEMO_END_USER_APP,
): string | null {
  if (!featureOption(permissions, features.shipments, WEB_APP_LINK_OPTION)) return null;
  return `${base.replace(/\/+$/, '')}/parcels/${encodeURIComponent(piece.piece_id)}`;
}
