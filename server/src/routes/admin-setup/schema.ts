// Request bodies of the admin bootstrap routes. `POST /api/init-admin` takes no body.
export { makeAdminSchema } from '../../contract';
