import { getPositionContract, listPositionsContract } from '@keel/contracts';
import { describe, expect, it } from 'vitest';
import { openPositionsInput, positionHistoryInput, positionInput } from './leverage-inputs.ts';

describe('the leverage screens’ reads', () => {
  it('ask for inputs the contracts accept', () => {
    expect(listPositionsContract.query!.parse(openPositionsInput('futures').query)).toEqual({ scope: 'open', product: 'futures', page: 1, pageSize: 100 });
    expect(listPositionsContract.query!.parse(positionHistoryInput('leveraged', 2).query)).toEqual({ scope: 'history', product: 'leveraged', page: 2, pageSize: 10 });
    expect(getPositionContract.params!.parse(positionInput('12').params)).toEqual({ positionId: '12' });
  });
});
