import { Button } from '@mui/material';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { useRecordContext, useTranslate } from 'react-admin';
import { useProfile } from '../../schema/ui/profile.ts';
import { features } from '../../schema/features.ts';
import { featureOption } from '../../schema/permissions.ts';
import { usePieceDetail } from './piece-detail.ts';

/** The web app link option of spec 01 §6 (server/gateway/rules/shipments/web-app-link.ts reads the same). */
export const WEB_APP_LINK_OPTION = 'web_app_link';

/**
 * "Open in the end-user web app" on a piece's page: the page its end user follows the parcel on, in a
 * new tab. Only for a user whose shipments policy has the web app link option; the link itself comes
 * from the gateway's piece detail, which gives it to no one else.
 */
export function PieceWebAppLink() {
  const translate = useTranslate();
  const record = useRecordContext();
  const permissions = useProfile();
  const enabled = permissions?.permissions
    ? featureOption(permissions.permissions, features.shipments, WEB_APP_LINK_OPTION)
    : false;
  const pieceId = enabled && record?.piece_id !== undefined ? String(record.piece_id) : undefined;
  const { detail } = usePieceDetail(pieceId);
  const link = detail.data?.web_app_link;
  if (!enabled || !link) return null;
  return (
    <Button
      size="small"
      href={link}
      target="_blank"
      rel="noopener noreferrer"
      startIcon={<OpenInNewIcon />}
      aria-label={translate('shipments.web_app.open_label', { piece: pieceId })}
    >
      {translate('shipments.web_app.open')}
    </Button>
  );
}
