// The filter bar pieces every server-side list uses: a search box and a select whose "all" option means no filter.
import { Select, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

export function SearchField({
  value,
  onChange,
  placeholder,
}: {
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
}) {
  return (
    <TextInput
      label="Search"
      placeholder={placeholder}
      leftSection={<IconSearch size={16} />}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      style={{ flex: 1 }}
    />
  );
}

export interface Option {
  value: string;
  label: string;
}

export function FilterSelect({
  label,
  data,
  value,
  onChange,
}: {
  label: string;
  data: readonly Option[];
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <Select
      label={label}
      data={data as Option[]}
      value={value}
      allowDeselect={false}
      onChange={(v) => onChange(v ?? 'all')}
    />
  );
}
