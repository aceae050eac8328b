// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ENSRegistry} from "./ENSRegistry.sol";
import {NameCoder} from "./NameCoder.sol";

/// The two entry points of ENS's Universal Resolver that clients (thirdweb's resolveAddress,
/// resolveText, resolveAvatar and resolveName among them) call, with the same ABI and errors:
///  - resolve(name, data): finds the name's resolver in the registry and returns what it answers
///    to `data` (an encoded `addr`/`text`/… call);
///  - reverse(address, coinType): the address's primary name, verified by resolving that name
///    forward and checking it points back at the address.
/// Only what a single-chain local deployment needs: no wildcard or offchain (CCIP-Read) lookups,
/// and only Ethereum's coin type (60) for reverse names.
contract UniversalResolver {
    /// namehash("addr.reverse")
    bytes32 private constant ADDR_REVERSE_NODE = 0x91d1777781884d03a6757a803996e38de2a42967fb37eeaca72729271025a9e2;
    uint256 private constant COIN_TYPE_ETH = 60;
    bytes4 private constant NAME_SELECTOR = 0x691f3431; // name(bytes32)
    bytes4 private constant ADDR_COIN_SELECTOR = 0xf1cb7e06; // addr(bytes32,uint256)

    ENSRegistry public immutable registry;

    error ResolverNotFound(bytes name);
    error ResolverNotContract(bytes name, address resolver);
    error ResolverError(bytes errorData);
    error ReverseAddressMismatch(string primary, bytes primaryAddress);
    error UnsupportedCoinType(uint256 coinType);
    error InvalidLookupAddress(bytes lookupAddress);

    constructor(ENSRegistry registry_) {
        registry = registry_;
    }

    function resolve(bytes calldata name, bytes calldata data) external view returns (bytes memory result, address resolver) {
        resolver = _resolverOf(name);
        result = _call(resolver, data);
    }

    function reverse(bytes calldata lookupAddress, uint256 coinType) external view returns (string memory primary, address resolver, address reverseResolver) {
        if (coinType != COIN_TYPE_ETH) revert UnsupportedCoinType(coinType);
        if (lookupAddress.length != 20) revert InvalidLookupAddress(lookupAddress);
        bytes memory label = NameCoder.hexLabel(address(bytes20(lookupAddress)));
        bytes32 reverseNode = keccak256(abi.encodePacked(ADDR_REVERSE_NODE, keccak256(label)));
        reverseResolver = registry.resolver(reverseNode);
        if (reverseResolver == address(0)) return ("", address(0), address(0));
        if (reverseResolver.code.length == 0) {
            revert ResolverNotContract(NameCoder.encode(string(abi.encodePacked(label, ".addr.reverse"))), reverseResolver);
        }
        primary = abi.decode(_call(reverseResolver, abi.encodeWithSelector(NAME_SELECTOR, reverseNode)), (string));
        if (bytes(primary).length == 0) return ("", address(0), reverseResolver);

        bytes memory dns = NameCoder.encode(primary);
        resolver = _resolverOf(dns);
        bytes memory resolved = abi.decode(_call(resolver, abi.encodeWithSelector(ADDR_COIN_SELECTOR, NameCoder.namehash(dns), COIN_TYPE_ETH)), (bytes));
        if (keccak256(resolved) != keccak256(lookupAddress)) revert ReverseAddressMismatch(primary, resolved);
    }

    function _resolverOf(bytes memory dns) private view returns (address resolver) {
        resolver = registry.resolver(NameCoder.namehash(dns));
        if (resolver == address(0)) revert ResolverNotFound(dns);
        if (resolver.code.length == 0) revert ResolverNotContract(dns, resolver);
    }

    function _call(address resolver, bytes memory data) private view returns (bytes memory) {
        (bool ok, bytes memory answer) = resolver.staticcall(data);
        if (!ok) revert ResolverError(answer);
        return answer;
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0x01ffc9a7; // ERC-165
    }
}
