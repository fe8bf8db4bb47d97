// The application's choices between /person/Apply and /person/loanagreement travel in the address
// (`?productId=&amount=&collateralAsset=&collateralAmount=&holding=`), so a reload of either page,
// or the way back from the agreement to the form, keeps them.

export interface ApplyParams {
  productId: string;
  amount: string;
  collateralAsset: string;
  collateralAmount: string;
  /** The holding-ID photo's upload id (`holdingUploadId` of the application). */
  holdingUploadId: string;
}

const ID = /^\d{1,19}$/;
const DECIMAL = /^\d{1,30}(\.\d{1,18})?$/;
const ASSET = /^[A-Z0-9]{1,10}$/;

/** The choices as the address holds them; a value that is not one of its kind is dropped. */
export function readApplyParams(search: URLSearchParams): ApplyParams {
  const take = (name: string, shape: RegExp) => {
    const value = search.get(name) ?? '';
    return shape.test(value) ? value : '';
  };
  return {
    productId: take('productId', ID),
    amount: take('amount', DECIMAL),
    collateralAsset: take('collateralAsset', ASSET),
    collateralAmount: take('collateralAmount', DECIMAL),
    holdingUploadId: take('holding', ID),
  };
}

/** The address's search part for the choices (empty ones left out). */
export function applySearch(params: Partial<ApplyParams>): string {
  const search = new URLSearchParams();
  if (params.productId) search.set('productId', params.productId);
  if (params.amount) search.set('amount', params.amount);
  if (params.collateralAsset) search.set('collateralAsset', params.collateralAsset);
  if (params.collateralAmount) search.set('collateralAmount', params.collateralAmount);
  if (params.holdingUploadId) search.set('holding', params.holdingUploadId);
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Whether every choice the agreement and the application need is there. */
export function completeApplyParams(params: ApplyParams): boolean {
  return params.productId !== '' && params.amount !== '' && params.collateralAsset !== '' && params.collateralAmount !== '' && params.holdingUploadId !== '';
}
