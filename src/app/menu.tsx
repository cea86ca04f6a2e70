import { Menu, usePermissions, useTranslate } from 'react-admin';
import DashboardIcon from '@mui/icons-material/Dashboard';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import SubdirectoryArrowRightIcon from '@mui/icons-material/SubdirectoryArrowRight';
import type { AccessProfile } from '../authProvider/access-profile.ts';
import { menuFor } from './navigation.ts';
import { environment } from './environment.ts';

/** The sidebar, built from the user's feature menu (spec 01 §2.1, §2.2). */
export function AppMenu() {
  const { permissions: profile } = usePermissions<AccessProfile>();
  const translate = useTranslate();
  if (!profile) return <Menu />;
  const items = menuFor(profile, { shipmentReports: environment.shipmentReports });
  return (
    <Menu>
      {items.flatMap((item) => [
        <Menu.Item
          key={item.path}
          to={item.path}
          primaryText={translate(`menu.${item.key}`)}
          leftIcon={item.key === 'dashboard' ? <DashboardIcon /> : <ChevronRightIcon />}
        />,
        ...(item.children ?? []).map((child) => (
          <Menu.Item
            key={child.path}
            to={child.path}
            primaryText={translate(`menu.${child.key}`)}
            leftIcon={<SubdirectoryArrowRightIcon />}
            sx={{ pl: 4 }}
          />
        )),
      ])}
    </Menu>
  );
}
