// Request of POST /api/contact: the shared contract schema (the landing page's form types itself from it).
export { contactSchema } from '../../contract';
