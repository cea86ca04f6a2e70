import { Menu, useTranslate } from 'react-admin';
import { useProfile } from '../schema/ui/profile.ts';
import { menuFor, type NavItem } from './navigation.ts';
import { environment } from './environment.ts';
import { areaIcons } from '../schema/ui/area-icons.tsx';

/**
 * react-admin cuts a menu label to one line with '...'; long labels (French ones above all) wrap
 * instead while the sidebar is open. Closed, only the icons show.
 */
const readableLabels = {
  '&.RaMenu-open .MuiMenuItem-root': { whiteSpace: 'normal' },
  '&.RaMenu-open .MuiMenuItem-root .MuiTypography-noWrap': { whiteSpace: 'normal', overflow: 'visible' },
};

function MenuIcon({ name }: { name: NavItem['icon'] }) {
  const Icon = name && areaIcons[name];
  return Icon ? <Icon /> : undefined;
}

/** The sidebar, built from the user's feature menu (spec 01 §2.1, §2.2). */
export function AppMenu() {
  const profile = useProfile();
  const translate = useTranslate();
  if (!profile) return <Menu />;
  const items = menuFor(profile, { shipmentReports: environment.shipmentReports });
  return (
    <Menu sx={readableLabels}>
      {items.flatMap((item) => [
        <Menu.Item
          key={item.path}
          to={item.path}
          primaryText={translate(`menu.${item.key}`)}
          leftIcon={<MenuIcon name={item.icon} />}
        />,
        ...(item.children ?? []).map((child) => (
          <Menu.Item
            key={child.path}
            to={child.path}
            primaryText={translate(`menu.${child.key}`)}
            leftIcon={<MenuIcon name={child.icon} />}
            sx={{ pl: 4 }}
          />
        )),
      ])}
    </Menu>
  );
}
