/** Every stored row belongs to exactly one tenant; another tenant's rows are invisible. */
export type TenantId = string;
