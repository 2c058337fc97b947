// GST facts both ends need: the state codes (first two digits of a GSTIN; place of supply on invoices) and the
// GSTIN shape. The buyer picks a state at checkout from this list.
import { z } from 'zod';

/** GST state and union-territory codes, as used in GSTINs and on invoices. */
export const GST_STATES: Readonly<Record<string, string>> = {
  '01': 'Jammu and Kashmir',
  '02': 'Himachal Pradesh',
  '03': 'Punjab',
  '04': 'Chandigarh',
  '05': 'Uttarakhand',
  '06': 'Haryana',
  '07': 'Delhi',
  '08': 'Rajasthan',
  '09': 'Uttar Pradesh',
  '10': 'Bihar',
  '11': 'Sikkim',
  '12': 'Arunachal Pradesh',
  '13': 'Nagaland',
  '14': 'Manipur',
  '15': 'Mizoram',
  '16': 'Tripura',
  '17': 'Meghalaya',
  '18': 'Assam',
  '19': 'West Bengal',
  '20': 'Jharkhand',
  '21': 'Odisha',
  '22': 'Chhattisgarh',
  '23': 'Madhya Pradesh',
  '24': 'Gujarat',
  '26': 'Dadra and Nagar Haveli and Daman and Diu',
  '27': 'Maharashtra',
  '29': 'Karnataka',
  '30': 'Goa',
  '31': 'Lakshadweep',
  '32': 'Kerala',
  '33': 'Tamil Nadu',
  '34': 'Puducherry',
  '35': 'Andaman and Nicobar Islands',
  '36': 'Telangana',
  '37': 'Andhra Pradesh',
  '38': 'Ladakh',
  '97': 'Other Territory',
};

/** 2 digits of state, 10 of PAN, entity number, `Z`, check character. */
export const GSTIN_PATTERN = /^\d{2}[A-Z0-9]{10}[1-9A-Z]Z[0-9A-Z]$/;

export const gstStateCodeSchema = z
  .string()
  .refine((v) => v in GST_STATES, 'must be a GST state code such as 29 (Karnataka)');

/** A buyer's GSTIN (B2B): upper-cased; its first two digits must be the buyer's state. */
export const gstinSchema = z
  .string()
  .trim()
  .transform((v) => v.toUpperCase())
  .pipe(z.string().regex(GSTIN_PATTERN, 'must be a 15-character GSTIN such as 29ABCDE1234F1Z5'));

/** Who the invoice is made out to, asked at checkout. */
export const buyerSchema = z
  .object({
    stateCode: gstStateCodeSchema,
    gstin: gstinSchema.optional(),
    /** the registered business name on a B2B invoice; the account's name otherwise */
    name: z.string().trim().min(2).max(200).optional(),
  })
  .refine((b) => b.gstin === undefined || b.gstin.startsWith(b.stateCode), {
    message: 'gstin: must start with the chosen state code',
    path: ['gstin'],
  });

export type BuyerDetails = z.output<typeof buyerSchema>;
