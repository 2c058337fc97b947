// The inputs of an offer, shared by the Add form and the Edit dialog: name, code, a percentage or a fixed amount,
// the plan it is for, validity as IST days, the redemption cap and the active switch.
import { NumberInput, SegmentedControl, Select, SimpleGrid, Switch, TextInput } from '@mantine/core';
import type { AdminPlanDto } from '@optionpilot/server/contract';
import type { FieldErrors } from '../../../lib/fieldErrors';
import type { OfferFormField, OfferFormValues } from './offerForm';

export function OfferFields({
  form,
  onChange,
  errors,
  plans,
}: {
  form: OfferFormValues;
  onChange: (patch: Partial<OfferFormValues>) => void;
  errors: FieldErrors<OfferFormField>;
  plans: readonly AdminPlanDto[];
}) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
      <TextInput
        label="Offer name"
        value={form.name}
        onChange={(e) => onChange({ name: e.currentTarget.value })}
        error={errors.name}
      />
      <TextInput
        label="Code"
        description="What buyers type at checkout (any case)"
        value={form.code}
        onChange={(e) => onChange({ code: e.currentTarget.value.toUpperCase() })}
        error={errors.code}
      />
      <SegmentedControl
        aria-label="Discount type"
        value={form.discountKind}
        onChange={(v) => onChange({ discountKind: v === 'amount' ? 'amount' : 'percent' })}
        data={[
          { value: 'percent', label: 'Percent' },
          { value: 'amount', label: 'Fixed amount' },
        ]}
        style={{ alignSelf: 'end' }}
      />
      {form.discountKind === 'percent' ? (
        <NumberInput
          label="Discount %"
          value={form.discountPercent}
          onChange={(v) => onChange({ discountPercent: v })}
          min={0}
          max={100}
          decimalScale={2}
          error={errors.discountPercent}
        />
      ) : (
        <TextInput
          label="Discount (₹)"
          description="Off the plan price, before GST"
          value={form.discountRupees}
          onChange={(e) => onChange({ discountRupees: e.currentTarget.value })}
          error={errors.discountAmountPaise}
        />
      )}
      <Select
        label="Plan"
        value={form.planCode}
        onChange={(v) => onChange({ planCode: v ?? '' })}
        data={[{ value: '', label: 'Every plan' }, ...plans.map((p) => ({ value: p.code, label: p.name }))]}
        allowDeselect={false}
        error={errors.planCode}
      />
      <TextInput
        label="Valid from (IST)"
        type="date"
        value={form.validFrom}
        onChange={(e) => onChange({ validFrom: e.currentTarget.value })}
        error={errors.validFrom}
      />
      <TextInput
        label="Valid until (IST)"
        description="The offer ends at the end of this day"
        type="date"
        value={form.validUntil}
        onChange={(e) => onChange({ validUntil: e.currentTarget.value })}
        error={errors.validTill}
      />
      <NumberInput
        label="Max redemptions"
        description="Empty: no limit"
        value={form.maxUsers}
        onChange={(v) => onChange({ maxUsers: v })}
        min={1}
        allowDecimal={false}
        error={errors.maxUsers}
      />
      <Switch
        label="Active"
        checked={form.active}
        onChange={(e) => onChange({ active: e.currentTarget.checked })}
        style={{ alignSelf: 'end' }}
      />
    </SimpleGrid>
  );
}
