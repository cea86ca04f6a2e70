import type { ReactElement } from 'react';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import AddLocationAltIcon from '@mui/icons-material/AddLocationAlt';
import AssessmentIcon from '@mui/icons-material/Assessment';
import BuildIcon from '@mui/icons-material/Build';
import BusinessIcon from '@mui/icons-material/Business';
import ConfirmationNumberIcon from '@mui/icons-material/ConfirmationNumber';
import DashboardIcon from '@mui/icons-material/Dashboard';
import DialpadIcon from '@mui/icons-material/Dialpad';
import DirectionsBikeIcon from '@mui/icons-material/DirectionsBike';
import EngineeringIcon from '@mui/icons-material/Engineering';
import EventAvailableIcon from '@mui/icons-material/EventAvailable';
import FactoryIcon from '@mui/icons-material/Factory';
import KeyIcon from '@mui/icons-material/Key';
import ListAltIcon from '@mui/icons-material/ListAlt';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import MemoryIcon from '@mui/icons-material/Memory';
import NotificationsIcon from '@mui/icons-material/Notifications';
import NotificationsActiveIcon from '@mui/icons-material/NotificationsActive';
import PeopleIcon from '@mui/icons-material/People';
import PersonSearchIcon from '@mui/icons-material/PersonSearch';
import PhoneAndroidIcon from '@mui/icons-material/PhoneAndroid';
import PlaceIcon from '@mui/icons-material/Place';
import PrecisionManufacturingIcon from '@mui/icons-material/PrecisionManufacturing';
import PriceChangeIcon from '@mui/icons-material/PriceChange';
import ReceiptIcon from '@mui/icons-material/Receipt';
import SearchIcon from '@mui/icons-material/Search';
import ShoppingCartIcon from '@mui/icons-material/ShoppingCart';
import StorefrontIcon from '@mui/icons-material/Storefront';
import SummarizeIcon from '@mui/icons-material/Summarize';
import SupportAgentIcon from '@mui/icons-material/SupportAgent';
import WebhookIcon from '@mui/icons-material/Webhook';
import WorkspacesIcon from '@mui/icons-material/Workspaces';

/**
 * One icon per menu item (by its `menu.<key>`), so that a collapsed sidebar still tells the items
 * apart; none of them suggests a sub-menu, as the items do not expand.
 */
export const menuIcons: Record<string, ReactElement> = {
  dashboard: <DashboardIcon />,
  shipment_search: <SearchIcon />,
  shipment_reports: <SummarizeIcon />,
  end_user_search: <PersonSearchIcon />,
  service_points: <StorefrontIcon />,
  service_point_groups: <WorkspacesIcon />,
  hardware: <MemoryIcon />,
  pinpad: <DialpadIcon />,
  carriers: <LocalShippingIcon />,
  couriers: <DirectionsBikeIcon />,
  location_owners: <BusinessIcon />,
  hardware_owners: <PrecisionManufacturingIcon />,
  maintenance_providers: <BuildIcon />,
  operators: <EngineeringIcon />,
  support_providers: <SupportAgentIcon />,
  price_structure: <PriceChangeIcon />,
  webtool_users: <PeopleIcon />,
  notifications: <NotificationsIcon />,
  tickets: <ConfirmationNumberIcon />,
  booking: <EventAvailableIcon />,
  locations: <PlaceIcon />,
  invoicing_report: <ReceiptIcon />,
  license: <KeyIcon />,
  hardware_orders: <ShoppingCartIcon />,
  production_orders: <FactoryIcon />,
  reports: <AssessmentIcon />,
  location_generator: <AddLocationAltIcon />,
  webtool_logs: <ListAltIcon />,
  webhooks: <WebhookIcon />,
  alerts: <NotificationsActiveIcon />,
  test_app_users: <PhoneAndroidIcon />,
  profile: <AccountCircleIcon />,
};
