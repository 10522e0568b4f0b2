// SPDX-License-Identifier: MIT
pragma solidity 0.8.17;

/// @title CounterfactualDeployCheck
/// @notice Run only in an `eth_call` without a target (never deployed): runs an ERC-6492 factory call and returns
/// `abi.encode(bool callSucceeded, uint256 codeLengthBefore, uint256 codeLengthAfter)` of `account`, so the
/// sandbox knows whether that call deploys exactly `account` before it sends it.
contract CounterfactualDeployCheck {
    constructor(address account, address factory, bytes memory factoryCalldata) {
        uint256 before = account.code.length;
        (bool ok,) = factory.call(factoryCalldata);
        bytes memory result = abi.encode(ok, before, account.code.length);
        assembly {
            return(add(result, 32), mload(result))
        }
    }
}
