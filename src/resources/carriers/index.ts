import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import { schemaResource } from '../../schema/ui/schema-resource.tsx';
import { SvgUploadInput } from './svg-upload-input.tsx';

export default schemaResource('carrier', { icon: LocalShippingIcon, inputs: { 'svg-upload': SvgUploadInput } });
