import { Datagrid, List, NumberField, SelectField, TextField, TextInput, useTranslate } from 'react-admin';
import StorefrontIcon from '@mui/icons-material/Storefront';

const statuses = Array.from({ length: 10 }, (_, status) => ({
  id: status,
  name: `choices.service_point_status.${status}`,
}));

function ServicePointList() {
  const translate = useTranslate();
  return (
    <List
      perPage={15}
      sort={{ field: 'service_point_id', order: 'DESC' }}
      filters={[<TextInput key="q" source="q" label={translate('ra.action.search')} alwaysOn />]}
    >
      <Datagrid rowClick={false} bulkActionButtons={false}>
        <NumberField source="service_point_id" />
        <TextField source="sp_id" />
        <TextField source="name" />
        <SelectField source="status" choices={statuses} />
        <TextField source="country" />
        <TextField source="city" />
        <TextField source="zip" />
      </Datagrid>
    </List>
  );
}

export default {
  list: ServicePointList,
  icon: StorefrontIcon,
  recordRepresentation: 'name',
};
