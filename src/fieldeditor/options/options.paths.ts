/** Paths of the option endpoints, shared by the option and default-value routers. */
export const OPTIONS_PATH = '/user/customfields/:customFieldId/contexts/:contextId/options';
export const CHILDREN_PATH = `${OPTIONS_PATH}/:optionId/childoptions`;
