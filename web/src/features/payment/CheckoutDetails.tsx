// The buyer's part of a checkout: the plan (when several are on sale), the state the GST invoice is made out to (place of supply), an optional GSTIN and
// business name for a B2B invoice, and an offer code checked with the server's quote before paying. The server
// prices the order again on create-order; nothing here decides an amount.
import { useState } from 'react';
import { Button, Group, SegmentedControl, Select, Stack, TextInput } from '@mantine/core';
import {
  GST_STATES,
  type CheckoutQuoteDto,
  type CreateOrderRequest,
  type PlanDto,
} from '@optionpilot/server/contract';
import { api, ApiError, errorMessage } from '../../api/client';

export interface CheckoutDetailsValue {
  /** the plan chosen (null: the first on sale) */
  planCode: string | null;
  stateCode: string | null;
  gstin: string;
  businessName: string;
  /** the offer code the quote accepted ('' for none) */
  offerCode: string;
}

export const EMPTY_DETAILS: CheckoutDetailsValue = {
  planCode: null,
  stateCode: null,
  gstin: '',
  businessName: '',
  offerCode: '',
};

const STATE_OPTIONS = Object.entries(GST_STATES)
  .map(([code, name]) => ({ value: code, label: `${name} (${code})` }))
  .sort((a, b) => a.label.localeCompare(b.label));

export const quoteApi = {
  quote: (planCode: string | null, offerCode: string) =>
    api.post<CheckoutQuoteDto>('/api/payment/quote', {
      ...(planCode === null ? {} : { planCode }),
      ...(offerCode === '' ? {} : { offerCode }),
    }),
};

/** The create-order fields of the details: the buyer only when a state was chosen, the offer only when applied. */
export function orderFields(
  details: CheckoutDetailsValue,
): Pick<CreateOrderRequest, 'buyer' | 'offerCode' | 'planCode'> {
  const gstin = details.gstin.trim();
  const name = details.businessName.trim();
  return {
    ...(details.planCode === null ? {} : { planCode: details.planCode }),
    ...(details.offerCode === '' ? {} : { offerCode: details.offerCode }),
    ...(details.stateCode === null
      ? {}
      : {
          buyer: {
            stateCode: details.stateCode,
            ...(gstin === '' ? {} : { gstin }),
            ...(name === '' ? {} : { name }),
          },
        }),
  };
}

export function CheckoutDetails(props: {
  value: CheckoutDetailsValue;
  /** the plans on sale: a choice is offered when there are several */
  plans: readonly PlanDto[];
  onChange: (next: CheckoutDetailsValue) => void;
  /** a quote the server accepted (with or without an offer) */
  onQuote: (quote: CheckoutQuoteDto) => void;
  disabled: boolean;
  /** a create-order error that names one of these fields */
  fieldError?: { field: string; message: string } | null;
}) {
  const { value, onChange, onQuote, disabled } = props;
  const [code, setCode] = useState(value.offerCode);
  const [codeError, setCodeError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const errorOf = (field: string) =>
    props.fieldError?.field === field ? props.fieldError.message : undefined;

  const apply = async (next: string) => {
    setChecking(true);
    setCodeError(null);
    try {
      const quote = await quoteApi.quote(value.planCode, next.trim());
      onQuote(quote);
      onChange({ ...value, offerCode: quote.offer?.code ?? '' });
      setCode(quote.offer?.code ?? '');
    } catch (err) {
      setCodeError(
        err instanceof ApiError && err.field === 'offerCode'
          ? err.message.replace(/^offerCode: /, '')
          : errorMessage(err, 'Could not check the code'),
      );
    } finally {
      setChecking(false);
    }
  };

  return (
    <Stack gap="xs">
      {props.plans.length > 1 && (
        <SegmentedControl
          aria-label="Plan"
          fullWidth
          data={props.plans.map((p) => ({ value: p.code, label: p.name }))}
          value={value.planCode ?? props.plans[0]?.code ?? ''}
          onChange={(planCode) => {
            setCode('');
            setCodeError(null);
            onChange({ ...value, planCode, offerCode: '' });
          }}
          disabled={disabled}
        />
      )}
      <Select
        label="Your state (for the GST invoice)"
        placeholder="Choose your state"
        data={STATE_OPTIONS}
        searchable
        clearable
        value={value.stateCode}
        onChange={(stateCode) => onChange({ ...value, stateCode })}
        disabled={disabled}
        error={errorOf('buyer')}
      />
      {value.stateCode !== null && (
        <Group grow align="flex-start">
          <TextInput
            label="GSTIN (optional)"
            description="For a business (B2B) invoice"
            value={value.gstin}
            onChange={(e) => onChange({ ...value, gstin: e.currentTarget.value })}
            disabled={disabled}
            error={errorOf('gstin')}
          />
          <TextInput
            label="Business name (optional)"
            description="As registered for GST"
            value={value.businessName}
            onChange={(e) => onChange({ ...value, businessName: e.currentTarget.value })}
            disabled={disabled}
          />
        </Group>
      )}
      <Group align="flex-end" gap="xs">
        <TextInput
          label="Offer code"
          placeholder="e.g. DIWALI10"
          style={{ flex: 1 }}
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
          disabled={disabled || checking}
          error={codeError ?? errorOf('offerCode')}
        />
        {value.offerCode !== '' && value.offerCode === code.trim().toUpperCase() ? (
          <Button variant="subtle" onClick={() => void apply('')} disabled={disabled || checking}>
            Remove
          </Button>
        ) : (
          <Button
            variant="default"
            onClick={() => void apply(code)}
            disabled={disabled || checking || code.trim() === ''}
          >
            Apply
          </Button>
        )}
      </Group>
    </Stack>
  );
}
