import type { ComponentType } from 'react';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import AddLocationAltIcon from '@mui/icons-material/AddLocationAlt';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
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
import HeadsetMicIcon from '@mui/icons-material/HeadsetMic';
import WebhookIcon from '@mui/icons-material/Webhook';
import WorkspacesIcon from '@mui/icons-material/Workspaces';
import type { AreaIconName } from '../areas.ts';

/**
 * The icon of each area (src/schema/areas.ts), for its menu item and its resource pages alike, so
 * that a collapsed sidebar tells the items apart and a resource never shows another icon than its menu.
 */
export const areaIcons: Record<AreaIconName, ComponentType> = {
  AccountCircle: AccountCircleIcon,
  AddLocationAlt: AddLocationAltIcon,
  AdminPanelSettings: AdminPanelSettingsIcon,
  Assessment: AssessmentIcon,
  Build: BuildIcon,
  Business: BusinessIcon,
  ConfirmationNumber: ConfirmationNumberIcon,
  Dashboard: DashboardIcon,
  Dialpad: DialpadIcon,
  DirectionsBike: DirectionsBikeIcon,
  Engineering: EngineeringIcon,
  EventAvailable: EventAvailableIcon,
  Factory: FactoryIcon,
  Key: KeyIcon,
  ListAlt: ListAltIcon,
  LocalShipping: LocalShippingIcon,
  Memory: MemoryIcon,
  Notifications: NotificationsIcon,
  NotificationsActive: NotificationsActiveIcon,
  People: PeopleIcon,
  PersonSearch: PersonSearchIcon,
  PhoneAndroid: PhoneAndroidIcon,
  Place: PlaceIcon,
  PrecisionManufacturing: PrecisionManufacturingIcon,
  PriceChange: PriceChangeIcon,
  Receipt: ReceiptIcon,
  Search: SearchIcon,
  ShoppingCart: ShoppingCartIcon,
  Storefront: StorefrontIcon,
  Summarize: SummarizeIcon,
  SupportAgent: SupportAgentIcon,
  HeadsetMic: HeadsetMicIcon,
  Webhook: WebhookIcon,
  Workspaces: WorkspacesIcon,
};
